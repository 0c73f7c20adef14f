//===- InputLimits.h - limits checked on input text -------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// Input MLIR 22's parser crashes on instead of reporting, found by
// credit-fuzz, which tools that parse untrusted text refuse first:
//
// - MLIR's parser recurses once per nested bracket (array and dictionary
//   attributes, parentheses, regions, `tuple<...>`), so deeply nested input
//   overflows the stack before any diagnostic (6831 nested `[`).
// - linalg.reduce's and linalg.broadcast's custom parsers store a null
//   attribute when their `dimensions = [...]` is not a list of integers
//   that fit in int64 (`[q]`, `[1,]`, `q`, `[99999999999999999999]`), and
//   linalg.transpose's when its `permutation` is not, and then dereference
//   it, after printing their error.
// - linalg.generic's custom parser reads every element of its
//   `iterator_types = [...]` as a string without checking: an integer, a
//   nested list or `#linalg.iterator_type<parallel>` there is read as a
//   string of garbage length, and its error message then crashes or runs
//   out of memory.
// - MLIR's bytecode reader trusts the sizes and counts a file states (a
//   damaged file asks for a SmallVector of 258034373637 elements and
//   aborts), so such tools read MLIR text only.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_SUPPORT_INPUTLIMITS_H
#define CREDIT_SUPPORT_INPUTLIMITS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir {
namespace credit {

/// The deepest bracket nesting accepted in input text: far beyond what IR
/// is written with, and far below what overflows the parser's stack (with
/// AddressSanitizer's larger frames included).
constexpr unsigned kMaxNestingDepth = 256;

namespace detail {
/// When `text` at `i` starts a string literal or a `//` comment, moves `i`
/// to its last character (or the end) and returns true.
inline bool skipStringOrComment(llvm::StringRef text, size_t &i) {
  size_t e = text.size();
  if (text[i] == '"') {
    for (++i; i < e && text[i] != '"'; ++i)
      if (text[i] == '\\')
        ++i;
    return true;
  }
  if (text[i] == '/' && i + 1 < e && text[i + 1] == '/') {
    i = std::min(text.find('\n', i), e);
    return true;
  }
  return false;
}
} // namespace detail

/// The offset in `text` of the first opening bracket (`(`, `[`, `{`, `<`)
/// nested deeper than kMaxNestingDepth, if any. String literals and `//`
/// comments are skipped; `->` is not a bracket.
inline std::optional<size_t> findExcessiveNesting(llvm::StringRef text) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    if (detail::skipStringOrComment(text, i))
      continue;
    char c = text[i];
    if (c == '-' && i + 1 < e && text[i + 1] == '>') {
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNestingDepth)
        return i;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

namespace detail {
inline bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}
/// Skips what MLIR's lexer skips between tokens: white space and NUL
/// bytes inside the buffer.
inline size_t skipSpace(llvm::StringRef text, size_t i) {
  while (i < text.size() && (llvm::isSpace(text[i]) || text[i] == '\0'))
    ++i;
  return i;
}
/// Whether `text` at `i` (a `[`) starts a list, `[]` or `[e, ...]`, each of
/// whose elements `element` accepts (moving `i` past it).
inline bool isListOf(llvm::StringRef text, size_t i,
                     bool (*element)(llvm::StringRef, size_t &)) {
  i = skipSpace(text, i + 1);
  if (i < text.size() && text[i] == ']')
    return true;
  while (true) {
    if (!element(text, i))
      return false;
    i = skipSpace(text, i);
    if (i < text.size() && text[i] == ']')
      return true;
    if (i >= text.size() || text[i] != ',')
      return false;
    i = skipSpace(text, i + 1);
  }
}
/// An integer within int64 at `i` (decimal or hexadecimal, maybe negative).
inline bool isInteger(llvm::StringRef text, size_t &i) {
  size_t start = i;
  if (i < text.size() && text[i] == '-')
    ++i;
  size_t digits = i;
  if (text.substr(i).starts_with("0x")) {
    i += 2;
    digits = i;
    while (i < text.size() && llvm::isHexDigit(text[i]))
      ++i;
  } else {
    while (i < text.size() && llvm::isDigit(text[i]))
      ++i;
  }
  // An integer beyond int64 is a parse error too (`[99999999999999999999]`).
  int64_t value;
  return i != digits && !text.slice(start, i).getAsInteger(0, value);
}
/// A terminated string literal at `i`.
inline bool isString(llvm::StringRef text, size_t &i) {
  if (i >= text.size() || text[i] != '"')
    return false;
  skipStringOrComment(text, i);
  return i++ < text.size();
}
/// Where the value after a keyword at `i` starts, past ` = `; npos where no
/// `=` follows (the parsers report that themselves).
inline size_t findValue(llvm::StringRef text, size_t i) {
  i = skipSpace(text, i);
  if (i >= text.size() || text[i] != '=')
    return llvm::StringRef::npos;
  return skipSpace(text, i + 1);
}
/// Whether `text` at `i` continues a keyword with ` = [ints]` (each within
/// int64), the only form the parsers of linalg.reduce, broadcast and
/// transpose survive once they have seen their keyword.
inline bool isSafeIntegerList(llvm::StringRef text, size_t i) {
  i = findValue(text, i);
  return i == llvm::StringRef::npos ||
         (i < text.size() && text[i] == '[' && isListOf(text, i, isInteger));
}
/// Whether `text` at `i` continues a keyword with ` = [strings]`, the only
/// list linalg.generic's parser survives for its iterator_types. Another
/// value than a list or an alias is reported by the parser itself; an
/// alias (which may name a list of anything) is not safe.
inline bool isSafeStringList(llvm::StringRef text, size_t i) {
  i = findValue(text, i);
  if (i == llvm::StringRef::npos || i >= text.size())
    return true;
  if (text[i] == '#')
    return false;
  return text[i] != '[' || isListOf(text, i, isString);
}
} // namespace detail

/// An op whose custom parser crashes on a malformed list, the list's
/// keyword, the check of what follows the keyword, and for the diagnostic
/// the ops that share the check and the form it accepts.
struct UnparsableList {
  llvm::StringLiteral op, keyword;
  bool (*isSafe)(llvm::StringRef text, size_t afterKeyword);
  llvm::StringLiteral ops, form;
};
inline constexpr llvm::StringLiteral kIntegerListOps =
    "linalg.reduce, broadcast and transpose";
inline constexpr llvm::StringLiteral kIntegerList =
    "a list of 64-bit integers ('= [1]')";
inline constexpr UnparsableList kUnparsableLists[] = {
    {"linalg.reduce", "dimensions", detail::isSafeIntegerList, kIntegerListOps,
     kIntegerList},
    {"linalg.broadcast", "dimensions", detail::isSafeIntegerList,
     kIntegerListOps, kIntegerList},
    {"linalg.transpose", "permutation", detail::isSafeIntegerList,
     kIntegerListOps, kIntegerList},
    {"linalg.generic", "iterator_types", detail::isSafeStringList,
     "linalg.generic",
     "a list of strings ('= [\"parallel\", \"reduction\"]')"}};

/// The first keyword of an op of kUnparsableLists whose list its parser
/// would crash on, if any (strings and `//` comments skipped): its offset
/// in `text` and its entry.
inline std::optional<std::pair<size_t, const UnparsableList *>>
findUnparsableList(llvm::StringRef text) {
  const UnparsableList *pending = nullptr; // of the op seen last, unchecked
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    if (detail::skipStringOrComment(text, i))
      continue;
    char c = text[i];
    if (!detail::isIdentifierChar(c) ||
        (i > 0 && detail::isIdentifierChar(text[i - 1])))
      continue;
    size_t end = i;
    while (end < e && detail::isIdentifierChar(text[end]))
      ++end;
    llvm::StringRef word = text.slice(i, end);
    for (const UnparsableList &list : kUnparsableLists)
      if (word == list.op)
        pending = &list;
    if (pending && word == pending->keyword) {
      if (!pending->isSafe(text, end))
        return std::make_pair(i, pending);
      pending = nullptr;
    }
    i = end - 1;
  }
  return std::nullopt;
}

/// Where and why credit-opt refuses `text` before parsing it, if it does.
struct UnsafeInput {
  size_t offset;
  std::string reason;
};
inline std::optional<UnsafeInput> findUnsafeInput(llvm::StringRef text) {
  // MLIR bytecode's magic number (mlir::isBytecode's test).
  if (text.starts_with("ML\xEFR"))
    return UnsafeInput{0, "this is MLIR bytecode, which credit-opt does not "
                          "read: MLIR's bytecode reader aborts on a damaged "
                          "file instead of reporting it; give MLIR text "
                          "(`mlir-opt FILE` prints it)"};
  if (std::optional<size_t> at = findExcessiveNesting(text))
    return UnsafeInput{*at, "brackets nest deeper than " +
                                std::to_string(kMaxNestingDepth) +
                                " levels; credit-opt refuses such input "
                                "rather than overflow the parser's stack"};
  if (auto found = findUnparsableList(text)) {
    auto [at, list] = *found;
    return UnsafeInput{at, "'" + list->keyword.str() + "' of " +
                               list->ops.str() + " must be " +
                               list->form.str() +
                               "; MLIR's parser crashes on anything else, so "
                               "credit-opt refuses it"};
  }
  return std::nullopt;
}

} // namespace credit
} // namespace mlir

#endif // CREDIT_SUPPORT_INPUTLIMITS_H
