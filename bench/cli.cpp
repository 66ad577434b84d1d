// Command-line values shared by the bench tools (cli.hpp).
#include "cli.hpp"

#include <cerrno> // program_invocation_short_name (glibc)
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace bench::cli {

void bad(const std::string& message) {
    std::fprintf(stderr, "%s: %s (see --help)\n", program_invocation_short_name, message.c_str());
    std::exit(2);
}

std::vector<std::string> split(const std::string& value) {
    std::vector<std::string> items;
    std::stringstream stream(value);
    for (std::string item; std::getline(stream, item, ',');)
        if (!item.empty()) items.push_back(item);
    return items;
}

long parse_integer(const std::string& option, const std::string& text, long low, long high) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < low || value > high)
        bad(option + ": '" + text + "' is not an integer in " + std::to_string(low) + ".." +
            std::to_string(high));
    return value;
}

double parse_positive(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(value > 0))
        bad(option + ": '" + text + "' is not a positive number");
    return value;
}

std::vector<int> parse_integers(const std::string& option, const std::string& text, long low, long high) {
    std::vector<int> values;
    for (const std::string& item : split(text)) values.push_back(int(parse_integer(option, item, low, high)));
    if (values.empty()) bad(option + " needs at least one value");
    return values;
}

} // namespace bench::cli
