// Command-line values shared by the bench tools (tdls-bench, tdls-tile-bench):
// each is checked in full, and a bad one ends the program with exit status 2
// and a message that names the program and the option.
#pragma once

#include <string>
#include <vector>

namespace bench::cli {

/// Prints "<program>: <message> (see --help)" and exits 2.
[[noreturn]] void bad(const std::string& message);

/// The non-empty items of a comma-separated list.
std::vector<std::string> split(const std::string& value);

/// An integer in low..high, the whole text.
long parse_integer(const std::string& option, const std::string& text, long low, long high);

/// A number > 0, the whole text.
double parse_positive(const std::string& option, const std::string& text);

/// A comma-separated list of at least one integer in low..high.
std::vector<int> parse_integers(const std::string& option, const std::string& text, long low, long high);

} // namespace bench::cli
