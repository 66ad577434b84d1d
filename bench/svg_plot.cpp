// A hand-written SVG plot (no plotting library on the image): best rate in
// systems/s against n, both axes logarithmic, one polyline per solver,
// storage, thread count and type; double solid, float dashed; a legend on
// the right. The roofline, when measured, is drawn in grey for reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "results.hpp"

namespace bench {
namespace {

struct Series {
    std::string name;
    char type;
    std::vector<std::pair<double, double>> points; // n, systems/s
};

std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else
            out += c;
    }
    return out;
}

} // namespace

bool write_svg(const std::vector<Row>& rows, const std::string& path, const std::string& title) {
    std::map<std::string, Series> by_name;
    std::vector<std::string> order;
    for (const Row& row : rows) {
        const double rate = row.best_rate();
        std::string name = row.label() + (row.threads ? ", " + std::to_string(row.threads) + "T" : ", GPU") +
                           (row.nrhs > 1 ? ", nrhs " + std::to_string(row.nrhs) : "") +
                           (row.type == 'd' ? ", double" : ", float");
        if (rate > 0) {
            if (!by_name.count(name)) order.push_back(name);
            Series& series = by_name[name];
            series.name = name, series.type = row.type;
            series.points.push_back({double(row.n), rate});
        }
        if (row.roofline > 0 && row.solver == "tdls") {
            const std::string roof = std::string(row.in_place ? "roofline in place, " : "roofline read-only, ") +
                                     (row.threads ? std::to_string(row.threads) : "") + "T" +
                                     (row.type == 'd' ? ", double" : ", float");
            if (!by_name.count(roof)) order.push_back(roof);
            Series& series = by_name[roof];
            series.name = roof, series.type = row.type;
            if (std::find_if(series.points.begin(), series.points.end(),
                             [&](auto& p) { return p.first == row.n; }) == series.points.end())
                series.points.push_back({double(row.n), row.roofline});
        }
    }
    double n_low = 1e300, n_high = 0, rate_low = 1e300, rate_high = 0;
    for (auto& [name, series] : by_name) {
        std::sort(series.points.begin(), series.points.end());
        for (auto [n, rate] : series.points) {
            n_low = std::min(n_low, n), n_high = std::max(n_high, n);
            rate_low = std::min(rate_low, rate), rate_high = std::max(rate_high, rate);
        }
    }
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    const double width = 1100, height = 640, left = 80, right = 820, top = 50, bottom = 580;
    std::fprintf(f,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
                 "fill=\"white\"/>\n<text x=\"%.0f\" y=\"25\" font-size=\"15\">%s</text>\n",
                 width, height, left, escape(title).c_str());
    if (order.empty()) {
        std::fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">no successful measurement</text>\n</svg>\n", left,
                     top + 40);
        return std::fclose(f) == 0;
    }
    // Whole decades on the rate axis; n from the smallest to the largest size.
    const double y_low = std::floor(std::log10(rate_low)), y_high = std::ceil(std::log10(rate_high));
    const double x_low = std::log2(n_low), x_high = std::max(std::log2(n_high), x_low + 1);
    auto x_of = [&](double n) { return left + (std::log2(n) - x_low) / (x_high - x_low) * (right - left); };
    auto y_of = [&](double rate) {
        return bottom - (std::log10(rate) - y_low) / std::max(1.0, y_high - y_low) * (bottom - top);
    };
    std::fprintf(
        f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
        left, top, right - left, bottom - top);
    for (double decade = y_low; decade <= y_high; ++decade) {
        const double y = y_of(std::pow(10.0, decade));
        std::fprintf(f,
                     "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                     "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n",
                     left, right, y, y, left - 6, y + 4, decade);
    }
    std::vector<double> sizes;
    for (auto& [name, series] : by_name)
        for (auto [n, rate] : series.points) sizes.push_back(n);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (double n : sizes)
        std::fprintf(f,
                     "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#eee\"/>\n"
                     "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>\n",
                     x_of(n), x_of(n), top, bottom, x_of(n), bottom + 16, n);
    std::fprintf(
        f,
        "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">n (order of each system, log scale)</text>\n"
        "<text transform=\"translate(22 %.0f) rotate(-90)\" text-anchor=\"middle\">systems per second, "
        "best sample (log scale)</text>\n",
        (left + right) / 2, bottom + 40, (top + bottom) / 2);
    static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                   "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"};
    std::map<std::string, int> color_of; // same solver in both types: same colour
    int legend = 0;
    for (const std::string& name : order) {
        const Series& series = by_name[name];
        const std::string key = name.substr(0, name.rfind(','));
        const bool roof = name.rfind("roofline", 0) == 0;
        if (!color_of.count(key)) color_of[key] = int(color_of.size());
        const char* color = roof ? "#999" : colors[color_of[key] % 12];
        const char* dash = series.type == 's' ? " stroke-dasharray=\"6 4\"" : "";
        std::fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", color,
                     roof ? "1" : "2", dash);
        for (auto [n, rate] : series.points) std::fprintf(f, "%.1f,%.1f ", x_of(n), y_of(rate));
        std::fprintf(f, "\"/>\n");
        for (auto [n, rate] : series.points)
            if (!roof)
                std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", x_of(n),
                             y_of(rate), color);
        const double y = top + 10 + 18 * legend++;
        std::fprintf(
            f,
            "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n"
            "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
            right + 15, right + 45, y, y, color, dash, right + 50, y + 4, escape(name).c_str());
    }
    std::fprintf(f, "</svg>\n");
    return std::fclose(f) == 0;
}

} // namespace bench
