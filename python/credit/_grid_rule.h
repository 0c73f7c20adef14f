/* _grid_rule.h - the manifest's grid rule, for the C launchers.
 *
 * Part of the CREDIT project.
 *
 * manifest.py's KernelManifest.rows_per_cluster and grid, without the
 * $CREDIT_WAVES experiment knob: the rows each cluster takes and the
 * clusters to launch for `m` rows. Shared by _fastlaunch.c (CPython's
 * limited API) and _torchpath.cpp (PyTorch's C++ API); plain C, no
 * Python.
 */

#ifndef CREDIT_GRID_RULE_H
#define CREDIT_GRID_RULE_H

/* manifest.py's GRID_POLICIES, in order. */
enum {
  CREDIT_ROW_GROUP_PER_CLUSTER = 0,
  CREDIT_ONE_WAVE = 1,
  CREDIT_ROW_BLOCKS = 2
};

static inline long long creditCeilDiv(long long a, long long b) {
  return (a + b - 1) / b;
}

/* Sets *rows and *clusters for `m` rows of a kernel with `group` rows per
 * CTA, `active` co-resident row groups and `blocks` row blocks (column
 * sums). A one-wave kernel takes a cluster per row group from `switchShare`
 * row groups per resident group (0: never). Returns NULL, or why the rule
 * cannot apply. */
static inline const char *creditGridRule(long long policy, long long m,
                                         long long group, long long active,
                                         long long blocks,
                                         long long switchShare,
                                         long long *rows,
                                         long long *clusters) {
  if (m < 0 || group < 1)
    return "negative rows or no rows per CTA";
  if (policy == CREDIT_ONE_WAVE && switchShare > 0 &&
      creditCeilDiv(creditCeilDiv(m, group), active > 0 ? active : 1) >=
          switchShare)
    policy = CREDIT_ROW_GROUP_PER_CLUSTER;
  switch (policy) {
  case CREDIT_ROW_GROUP_PER_CLUSTER:
    *rows = group;
    *clusters = creditCeilDiv(m, group);
    return 0;
  case CREDIT_ONE_WAVE: {
    long long share = creditCeilDiv(m, active > 0 ? active : 1);
    *rows = creditCeilDiv(share, group) * group;
    if (*rows < group)
      *rows = group;
    *clusters = creditCeilDiv(m, *rows);
    return 0;
  }
  case CREDIT_ROW_BLOCKS:
    /* Without rows too: the kernel writes the zero sums of its blocks. */
    if (blocks < 1)
      return "column sums need row blocks";
    *rows = creditCeilDiv(m, blocks);
    if (*rows < 1)
      *rows = 1;
    *clusters = blocks;
    return 0;
  default:
    return "unknown grid policy";
  }
}

#endif /* CREDIT_GRID_RULE_H */
