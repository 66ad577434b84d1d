// The markdown report on stdout and the CSV.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

#include "results.hpp"

namespace bench {

std::string Row::label() const {
    return solver == "tdls" ? solver + " " + form : solver;
}

namespace {

const Row* find(const std::vector<Row>& rows, char type, int n, int nrhs, int threads,
                const std::string& label) {
    for (const Row& row : rows)
        if (row.type == type && row.n == n && row.nrhs == nrhs && row.label() == label &&
            (row.threads == threads || row.threads == 0))
            return &row;
    return nullptr;
}

std::string number(double value) {
    if (!(value > 0)) return "-";
    char text[32];
    std::snprintf(text, sizeof text,
                  value >= 100  ? "%.0f"
                  : value >= 10 ? "%.1f"
                  : value >= 1  ? "%.2f"
                                : "%.3g",
                  value);
    return text;
}

std::string cell_rate(const Row* row) {
    if (!row) return "-";
    if (!row->ok())
        return row->status == "check FAILED" || row->status == "call failed" ? row->status : "n/a";
    return number(row->best_rate() * 1e-6);
}

/// The gesv row a solve row is compared with: the same storage, in place
/// ("tdls solve strided col" -> "tdls strided col"); empty for other labels.
std::string gesv_partner(const std::string& label) {
    const std::string prefix = "tdls solve ";
    return label.rfind(prefix, 0) == 0 ? "tdls " + label.substr(prefix.size()) : std::string();
}

} // namespace

void print_report(const std::vector<Row>& rows, int reps) {
    std::vector<std::string> tdls_labels, peer_labels;
    std::set<std::tuple<char, int, int>> groups; // type, nrhs, threads
    std::set<int> thread_counts;
    for (const Row& row : rows) {
        // A peer that never ran here (no GPU, say) gets no columns.
        if (row.solver != "tdls" && std::none_of(rows.begin(), rows.end(), [&](const Row& other) {
                return other.solver == row.solver && other.ok();
            }))
            continue;
        auto& labels = row.solver == "tdls" ? tdls_labels : peer_labels;
        if (std::find(labels.begin(), labels.end(), row.label()) == labels.end())
            labels.push_back(row.label());
        if (row.threads > 0)
            groups.insert({row.type, row.nrhs, row.threads}), thread_counts.insert(row.threads);
    }
    std::printf("\n## Results: best of %d samples; Ms/s = million systems per second; ratio = tdls / peer "
                "(best / best); %% roof = tdls rate / its roofline rate (in place for gesv and the peers, "
                "read-only for solve); / gesv = solve rate / gesv rate, same storage\n",
                reps);
    const auto has_partner = [&](const std::string& label) {
        const std::string partner = gesv_partner(label);
        return !partner.empty() &&
               std::find(tdls_labels.begin(), tdls_labels.end(), partner) != tdls_labels.end();
    };
    std::size_t partner_columns = 0;
    for (const std::string& t : tdls_labels) partner_columns += has_partner(t) ? 1 : 0;
    for (const auto& [type, nrhs, threads] : groups) {
        std::printf("\n### %s, nrhs %d, %d thread%s\n\n| n | batch |", type_name(type), nrhs,
                    threads, threads > 1 ? "s" : "");
        for (const std::string& t : tdls_labels) {
            std::printf(" %s Ms/s | GFLOP/s | %% roof |", t.c_str());
            if (has_partner(t)) std::printf(" / gesv |");
            for (const std::string& p : peer_labels) std::printf(" / %s |", p.c_str());
        }
        for (const std::string& p : peer_labels) std::printf(" %s Ms/s |", p.c_str());
        std::printf(" roofline in place Ms/s |\n|---|---|");
        for (std::size_t c = 0;
             c < tdls_labels.size() * (3 + peer_labels.size()) + partner_columns + peer_labels.size() + 1; ++c)
            std::printf("---|");
        std::printf("\n");
        std::set<int> sizes;
        for (const Row& row : rows)
            if (row.type == type && row.nrhs == nrhs) sizes.insert(row.n);
        for (int n : sizes) {
            const Row* any = nullptr;
            double roofline = 0;
            for (const Row& row : rows)
                if (row.type == type && row.n == n && row.nrhs == nrhs && row.threads == threads) {
                    if (!any || row.solver != "tdls") any = &row;
                    if (row.in_place) roofline = std::max(roofline, row.roofline);
                }
            std::printf("| %d | %lld |", n, any ? (long long)any->systems : 0LL);
            for (const std::string& t : tdls_labels) {
                const Row* ours = find(rows, type, n, nrhs, threads, t);
                std::printf(" %s | %s | %s |", cell_rate(ours).c_str(),
                            number(ours ? ours->gflops() : 0).c_str(),
                            ours && ours->ok() && ours->roofline > 0
                                ? number(100.0 * ours->best_rate() / ours->roofline).c_str()
                                : "-");
                if (has_partner(t)) {
                    const Row* gesv = find(rows, type, n, nrhs, threads, gesv_partner(t));
                    const bool both = ours && gesv && ours->ok() && gesv->ok();
                    std::printf(" %s |", both ? number(ours->best_rate() / gesv->best_rate()).c_str() : "-");
                }
                for (const std::string& p : peer_labels) {
                    const Row* peer = find(rows, type, n, nrhs, threads, p);
                    const bool both = ours && peer && ours->ok() && peer->ok();
                    std::printf(" %s |", both ? number(ours->best_rate() / peer->best_rate()).c_str() : "-");
                }
            }
            for (const std::string& p : peer_labels)
                std::printf(" %s |", cell_rate(find(rows, type, n, nrhs, threads, p)).c_str());
            std::printf(" %s |\n", number(roofline * 1e-6).c_str());
        }
    }
    if (thread_counts.size() < 2) return;
    const int low = *thread_counts.begin(), high = *thread_counts.rbegin();
    std::set<std::pair<char, int>> type_nrhs;
    for (const auto& [type, nrhs, threads] : groups) type_nrhs.insert({type, nrhs});
    std::vector<std::string> labels = tdls_labels;
    for (const std::string& p : peer_labels)
        if (p != "cublas") labels.push_back(p);
    for (const auto& [type, nrhs] : type_nrhs) {
        std::printf("\n### Thread scaling, %s, nrhs %d: rate with %d threads / rate with %d\n\n| n |",
                    type_name(type), nrhs, high, low);
        for (const std::string& l : labels) std::printf(" %s |", l.c_str());
        std::printf(" other processes, cores |\n|---|");
        for (std::size_t c = 0; c <= labels.size(); ++c) std::printf("---|");
        std::printf("\n");
        std::set<int> sizes;
        for (const Row& row : rows)
            if (row.type == type && row.nrhs == nrhs) sizes.insert(row.n);
        for (int n : sizes) {
            std::printf("| %d |", n);
            double other = -1;
            for (const std::string& l : labels) {
                const Row *one = find(rows, type, n, nrhs, low, l), *two = find(rows, type, n, nrhs, high, l);
                const bool both = one && two && one->ok() && two->ok();
                std::printf(" %s |", both ? number(two->best_rate() / one->best_rate()).c_str() : "-");
                if (two) other = std::max(other, two->other_cpu);
            }
            if (other >= 0)
                std::printf(" %.2f |\n", other);
            else
                std::printf(" - |\n");
        }
    }
}

bool write_csv(const std::vector<Row>& rows, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    std::fprintf(
        f, "type,n,nrhs,threads,solver,form,systems,status,reps,best_s,median_s,best_systems_per_s,"
           "median_systems_per_s,best_gflops,roofline_systems_per_s,roofline_fraction,max_backward_ratio,"
           "nonzero_info,other_cpu_cores\n");
    for (const Row& r : rows) {
        // Free text may hold commas, which would shift the columns.
        std::string status = r.status, form = r.form;
        std::replace(status.begin(), status.end(), ',', ';');
        std::replace(form.begin(), form.end(), ',', ';');
        std::fprintf(f, "%s,%d,%d,%d,%s,%s,%lld,%s,%zu,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.3e,%lld,%.3f\n",
                     type_name(r.type), r.n, r.nrhs, r.threads, r.solver.c_str(),
                     form.c_str(), (long long)r.systems, status.c_str(), r.samples.seconds.size(),
                     r.samples.best(), r.samples.median(), r.best_rate(), r.median_rate(), r.gflops(),
                     r.roofline, r.roofline > 0 && r.ok() ? r.best_rate() / r.roofline : 0.0,
                     r.check.checked ? r.check.max_ratio : NAN, (long long)r.check.nonzero_info, r.other_cpu);
    }
    return std::fclose(f) == 0;
}

} // namespace bench
