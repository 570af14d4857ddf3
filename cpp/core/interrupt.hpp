// Cooperative stopping of long C++ calls (Ctrl-C from Python), shared by every batch runner and
// search. Whoever starts a long computation installs a StopFlag for its thread (StopScope); loops
// poll stop_requested() between units of work and return early; parallel_for and the searchers
// hand the flag to the threads they start. The flag also counts finished units (count_done), which
// the binding layer turns into a progress bar. With no flag installed every check is a no-op.
#pragma once
#include <atomic>
#include <cstdint>

namespace tilecraft {

struct StopFlag {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> done{0};  // finished units (games), for progress reports
};

inline thread_local StopFlag* tl_stop_flag = nullptr;

inline StopFlag* current_stop_flag() { return tl_stop_flag; }

inline bool stop_requested() {
  const StopFlag* f = tl_stop_flag;
  return f != nullptr && f->stop.load(std::memory_order_relaxed);
}

inline void count_done(int64_t k = 1) {
  if (StopFlag* f = tl_stop_flag) f->done.fetch_add(k, std::memory_order_relaxed);
}

// Installs `flag` for the current thread until the end of the scope.
class StopScope {
 public:
  explicit StopScope(StopFlag* flag) : prev_(tl_stop_flag) { tl_stop_flag = flag; }
  ~StopScope() { tl_stop_flag = prev_; }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  StopFlag* prev_;
};

}  // namespace tilecraft
