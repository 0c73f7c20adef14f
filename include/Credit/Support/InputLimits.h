//===- InputLimits.h - limits checked on input text -------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// MLIR's parser recurses once per nested bracket (array and dictionary
// attributes, parentheses, regions, `tuple<...>`), so deeply nested input
// overflows the stack before any diagnostic (found by credit-fuzz: 6831
// nested `[` crash credit-opt). Tools that parse untrusted text check its
// nesting first.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_SUPPORT_INPUTLIMITS_H
#define CREDIT_SUPPORT_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>

namespace mlir {
namespace credit {

/// The deepest bracket nesting accepted in input text: far beyond what IR
/// is written with, and far below what overflows the parser's stack (with
/// AddressSanitizer's larger frames included).
constexpr unsigned kMaxNestingDepth = 256;

/// The offset in `text` of the first opening bracket (`(`, `[`, `{`, `<`)
/// nested deeper than kMaxNestingDepth, if any. String literals and `//`
/// comments are skipped; `->` is not a bracket.
inline std::optional<size_t> findExcessiveNesting(llvm::StringRef text) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
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

} // namespace credit
} // namespace mlir

#endif // CREDIT_SUPPORT_INPUTLIMITS_H
