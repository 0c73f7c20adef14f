//===- Combiners.h - building combiner arithmetic ---------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_COMBINERS_H
#define CREDIT_DIALECT_COMBINERS_H

#include "Credit/Dialect/CreditAttrs.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace credit {

/// The f32 identity of `kind`: 0 for add, addexp and sqdev, -inf for
/// max, +inf for min.
Value createCombinerIdentity(OpBuilder &b, Location loc, CombinerKind kind);

/// The position of the `max` that the `addexp` at `position` of `kinds`
/// sums relative to: the nearest one before it. None when there is none
/// (the verifiers reject such lists).
std::optional<unsigned> getExpPartner(ArrayRef<CombinerKind> kinds,
                                      unsigned position);

/// The shift an `addexp` subtracts before exponentiating, given its
/// partner's maximum `max` (f32 or vector of f32): `max` itself, or 0 where
/// it is -inf (no element yet), so that exp never sees -inf - -inf.
Value createExpShift(OpBuilder &b, Location loc, Value max);

/// The partial values a `sqdev` entry combines with: its sum, its count
/// and its own sum of squared deviations from the partial's mean.
struct Moments {
  Value sum, count, m2;
};

/// lhs / rhs for the moments of `sqdev`, which need it to about 2 ulp:
/// the approximate quotient (no IEEE slow path, no division chain).
Value createMomentsDiv(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// Chan's combination of two partials' moments (f32 or vectors of f32):
/// m2 = m2a + m2b + (mean_b - mean_a)^2 * na * nb / (na + nb), where a
/// partial with no elements adds nothing. It gives the same bits with the
/// operands swapped, so butterfly lanes agree.
Moments createMomentsMerge(OpBuilder &b, Location loc, const Moments &lhs,
                           const Moments &rhs);

/// Combines `lhs` and `rhs` (f32 or vectors of f32) by `kind`, which is
/// add, max or min; max and min propagate NaN.
Value createCombine(OpBuilder &b, Location loc, CombinerKind kind, Value lhs,
                    Value rhs);

/// Combines tuples of partial values, one value per entry of `kinds`, in
/// the order given. Entries other than `addexp` and `sqdev` combine alone;
/// an `addexp` entry s, partnered with maxima m, combines as
/// sum_i s_i * exp(m_i - M) with M the combined maximum (shifted as in
/// createExpShift): one exponential per tuple; a `sqdev` entry q as
/// sum_i q_i + (s_i - n_i * S / N)^2 / n_i with its sums s and counts n
/// (S and N their totals). Two tuples combine commutatively, bit for bit.
SmallVector<Value> createCombineAll(OpBuilder &b, Location loc,
                                    ArrayRef<CombinerKind> kinds,
                                    ArrayRef<SmallVector<Value>> tuples);

/// Lanes of a warp on every NVIDIA chip: the width of the shuffles.
inline constexpr int64_t kWarpLanes = 32;

/// Combines `values` (one per entry of `kinds`) over groups of `lanes`
/// consecutive lanes (a power of two) with xor shuffles: every entry but
/// addexp and sqdev first; then each lane rescales its addexp sums to the
/// group's maximum, and centers its sqdev's squared deviations on the
/// group's mean, and they are added. Every lane of a group ends with the
/// same bits.
SmallVector<Value> createButterfly(OpBuilder &b, Location loc,
                                   ArrayRef<CombinerKind> kinds,
                                   ValueRange values, int64_t lanes);

} // namespace credit
} // namespace mlir

#endif // CREDIT_DIALECT_COMBINERS_H
