// Cooperative stopping of long C++ calls (Ctrl-C from Python), shared by every batch runner and
// search. Whoever starts a long computation installs a StopFlag for its thread (StopScope, as the
// flag's owner); loops call stop_requested() between units of work and return early when it is
// true; parallel_for and the searchers hand the flag to the threads they start (not as owner).
// On the owner thread, stop_requested() also calls the flag's poll hook at most every 50 ms: the
// binding layer uses it to take the GIL briefly, check for signals and move a progress bar, with
// no extra thread. The flag counts finished units (count_done) for that progress bar. With no
// flag installed every check is a no-op.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace tilecraft {

struct StopFlag {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> done{0};  // finished units (games), for progress reports
  void (*poll)(StopFlag*, void*) = nullptr;  // called on the owner thread every 50 ms or so
  void* poll_arg = nullptr;
  uint32_t calls = 0;  // owner thread only
  std::chrono::steady_clock::time_point next_poll{};

  void maybe_poll() {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_poll) return;
    next_poll = now + std::chrono::milliseconds(50);
    poll(this, poll_arg);
  }
};

inline thread_local StopFlag* tl_stop_flag = nullptr;
inline thread_local bool tl_stop_owner = false;

inline StopFlag* current_stop_flag() { return tl_stop_flag; }

inline bool stop_requested() {
  StopFlag* f = tl_stop_flag;
  if (f == nullptr) return false;
  if (tl_stop_owner && f->poll != nullptr && (++f->calls & 15u) == 0) f->maybe_poll();
  return f->stop.load(std::memory_order_relaxed);
}

inline void count_done(int64_t k = 1) {
  if (StopFlag* f = tl_stop_flag) f->done.fetch_add(k, std::memory_order_relaxed);
}

// Installs `flag` for the current thread until the end of the scope (owner: this thread polls).
class StopScope {
 public:
  explicit StopScope(StopFlag* flag, bool owner = false) : prev_(tl_stop_flag), prev_owner_(tl_stop_owner) {
    tl_stop_flag = flag;
    tl_stop_owner = owner;
  }
  ~StopScope() {
    tl_stop_flag = prev_;
    tl_stop_owner = prev_owner_;
  }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  StopFlag* prev_;
  bool prev_owner_;
};

// Joins `pool` once `running` (decremented by each thread as it ends) reaches 0; meanwhile the
// calling thread keeps polling, so Ctrl-C is seen while it waits for the others.
inline void join_polling(std::vector<std::thread>& pool, const std::atomic<int>& running) {
  if (tl_stop_flag != nullptr && tl_stop_owner) {
    while (running.load() > 0) {
      stop_requested();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  for (auto& th : pool) th.join();
}

}  // namespace tilecraft
