// The one way C++ work is spread over threads. An exception on any worker must never reach
// std::terminate: ThreadFailure keeps the first exception a thread throws, raises the shared
// StopFlag (core/interrupt.hpp) so that every other thread ends its work early, and rethrows it,
// unchanged, on the calling thread once every thread has been joined. So std::bad_alloc reaches
// Python as MemoryError and tilecraft's errors keep their Python types.
//  - run_on_threads(threads, body): body(t) for t in [0, threads), t = 0 on the caller, the
//    others on threads started for the call (random_playouts and self_play through
//    parallel_for, root-parallel MCTS);
//  - the persistent pool of the batched environment (search/vector_env.hpp) keeps its threads
//    between calls and uses ThreadFailure for each call.
// test_failure_point(): a test-only failure injection (tilecraft._core._test_fail_worker(k, kind)):
// the k-th unit of work run on a worker thread (an item of parallel_for, a tree of root-parallel
// MCTS, a chunk of the vector pool) throws; then it is off again. One relaxed load per unit when off.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include "core/errors.hpp"
#include "core/interrupt.hpp"

namespace tilecraft {

// ---- test-only failure injection ----
enum class TestFailure : int { kMemory = 0, kInvalidConfig = 1, kRuntime = 2 };
inline std::atomic<int64_t> g_test_fail_countdown{0};  // 0: off
inline std::atomic<int> g_test_fail_kind{0};

inline void set_test_failure(int64_t k, TestFailure kind) {
  g_test_fail_kind.store(static_cast<int>(kind));
  g_test_fail_countdown.store(k < 0 ? 0 : k);
}

inline void test_failure_point() {
  if (g_test_fail_countdown.load(std::memory_order_relaxed) <= 0) return;
  if (g_test_fail_countdown.fetch_sub(1) != 1) return;  // not the k-th unit (or another thread won)
  switch (static_cast<TestFailure>(g_test_fail_kind.load())) {
    case TestFailure::kMemory:
      throw std::bad_alloc();
    case TestFailure::kInvalidConfig:
      throw InvalidConfig("injected failure on a worker thread (_test_fail_worker)");
    default:
      throw std::runtime_error("injected failure on a worker thread (_test_fail_worker)");
  }
}

// The first exception of a group of threads; catching one stops the others through `flag`.
class ThreadFailure {
 public:
  explicit ThreadFailure(StopFlag* flag) : flag_(flag) {}
  // Call from a catch block.
  void capture() noexcept {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
    failed_.store(true, std::memory_order_release);
    if (flag_) flag_->stop.store(true);
  }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  // On the caller, once every thread has ended.
  void rethrow() {
    if (!failed()) return;
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lock(mu_);
      e = error_;
      error_ = nullptr;
    }
    failed_.store(false);
    if (e) std::rethrow_exception(e);
  }

 private:
  StopFlag* flag_;
  std::mutex mu_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

// Runs body(t) for t in [0, threads): t = 0 on the calling thread, the others on new threads,
// every one under the caller's StopFlag (Ctrl-C reaches them all; the caller keeps polling while it
// waits), or under a flag of the call's own when the caller has none. Returns when all have
// ended; an exception on any of them stops the rest and is rethrown here.
template <class F>
void run_on_threads(int threads, F&& body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  StopFlag local;
  StopFlag* const outer = current_stop_flag();
  StopFlag* const flag = outer != nullptr ? outer : &local;
  const bool owner = outer != nullptr && tl_stop_owner;
  ThreadFailure failure(flag);
  std::atomic<int> running{0};
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  {
    StopScope scope(flag, owner);
    try {
      for (int t = 1; t < threads; ++t) {
        running.fetch_add(1);
        try {
          pool.emplace_back([&body, &failure, &running, flag](int k) {
            StopScope worker_scope(flag);
            try {
              body(k);
            } catch (...) {
              failure.capture();
            }
            running.fetch_sub(1);
          }, t);
        } catch (...) {
          running.fetch_sub(1);
          throw;
        }
      }
      body(0);
    } catch (...) {  // on the caller: its own work, or a thread that could not be started
      failure.capture();
    }
    join_polling(pool, running);
  }
  failure.rethrow();
}

// Physical memory in bytes, or 0 where it is not known (then nothing is refused for its size before
// allocating: the allocation's own error says it). VectorEnv and random_playouts refuse requests
// whose buffers could not fit.
inline double physical_memory() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<double>(pages) * static_cast<double>(size) : 0.0;
#else
  return 0.0;
#endif
}

}  // namespace tilecraft
