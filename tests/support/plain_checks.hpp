// Test support: checks for the plain-main tests (those that must make the
// process's first library calls themselves, so no test framework runs
// first): each check counts, each failure prints, and main returns by the
// counts.
#pragma once

#include <cstdio>
#include <string>

namespace tdls_test {

inline int failures = 0;
inline int checks = 0;

inline void check(bool ok, const std::string& what) {
    ++checks;
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        ++failures;
    }
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace tdls_test
