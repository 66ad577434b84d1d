// Clocks and sample statistics; what other processes did to the CPU meanwhile.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <vector>

namespace bench {

inline double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Seconds that `fn` takes, by the monotonic clock.
template <typename Fn>
double time_once(Fn&& fn) {
    const double start = now_seconds();
    fn();
    return now_seconds() - start;
}

struct Samples {
    std::vector<double> seconds;
    double best() const { return seconds.empty() ? 0 : *std::min_element(seconds.begin(), seconds.end()); }
    double median() const {
        if (seconds.empty()) return 0;
        std::vector<double> sorted = seconds;
        std::sort(sorted.begin(), sorted.end());
        const std::size_t m = sorted.size() / 2;
        return sorted.size() % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
    }
};

/// CPU time that processes other than this one used between start() and
/// cores(), in cores, from /proc/stat and /proc/self/stat: the VM is shared,
/// and a busy neighbour explains a slow 2-thread sample.
class OtherCpu {
  public:
    void start() {
        machine_ = machine_busy();
        self_ = self_busy();
        wall_ = now_seconds();
    }
    double cores() const {
        const double wall = now_seconds() - wall_;
        const double tick = double(sysconf(_SC_CLK_TCK));
        if (wall <= 0 || machine_ < 0 || self_ < 0) return -1;
        return std::max(0.0, ((machine_busy() - machine_) - (self_busy() - self_)) / tick / wall);
    }

  private:
    static double machine_busy() {
        std::FILE* f = std::fopen("/proc/stat", "r");
        if (!f) return -1;
        unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
        const int got = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                                    &idle, &iowait, &irq, &softirq, &steal);
        std::fclose(f);
        return got == 8 ? double(user + nice + system + irq + softirq) : -1;
    }
    static double self_busy() {
        std::FILE* f = std::fopen("/proc/self/stat", "r");
        if (!f) return -1;
        unsigned long utime = 0, stime = 0;
        // Fields 14 and 15; the command name (field 2) has no spaces here.
        const int got =
            std::fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
        std::fclose(f);
        return got == 2 ? double(utime + stime) : -1;
    }
    double machine_ = -1, self_ = -1, wall_ = 0;
};

} // namespace bench
