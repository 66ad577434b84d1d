// The command line of tdls_device_suite (see options.hpp).
#include "options.hpp"

namespace tdls_device {

std::optional<Options> parse_options(int argc, char** argv, std::string& error) {
    Options options;
    bool sized = false;
    for (int k = 0; k < argc; ++k) {
        if (k > 0) options.command_line += ' ';
        options.command_line += argv[k];
    }
    for (int k = 1; k < argc; ++k) {
        const std::string argument = argv[k];
        if (argument == "--quick" || argument == "--small") {
            const SweepSize size = argument == "--quick" ? SweepSize::quick : SweepSize::small;
            if (sized && size != options.sweep_size) {
                error = "--quick and --small exclude each other";
                return std::nullopt;
            }
            options.sweep_size = size;
            sized = true;
        } else if (argument == "--bench") {
            options.bench = true;
        } else if (argument == "--out") {
            if (k + 1 >= argc) {
                error = "--out needs a file name";
                return std::nullopt;
            }
            options.out = argv[++k];
        } else if (argument == "--model") {
            options.model = true;
        } else if (argument == "--help" || argument == "-h") {
            options.help = true;
        } else {
            error = "unknown argument '" + argument + "'";
            return std::nullopt;
        }
    }
    options.sweep = !options.bench || sized;
    return options;
}

} // namespace tdls_device
