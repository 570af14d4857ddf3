// The thread pool of the batched environment (search/vector_env.hpp): WorkerPool, and the
// streaming stores its workers write the observations with (stream_copy, store_fence).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#include "core/threads.hpp"

namespace tilecraft {

// Non-temporal copies (x86-64: SSE2 streaming stores, which bypass the cache) and the fence that
// orders them; elsewhere a plain copy.
#if defined(__x86_64__) || defined(_M_X64)
constexpr bool kCanStream = true;
inline void stream_copy(float* dst, const float* src, int n) {
  int i = 0;
  while (i < n && (reinterpret_cast<uintptr_t>(dst + i) & 15u)) dst[i] = src[i], ++i;
  for (; i + 4 <= n; i += 4) _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
  for (; i < n; ++i) dst[i] = src[i];
}
inline void store_fence() { _mm_sfence(); }
#else
constexpr bool kCanStream = false;
inline void stream_copy(float* dst, const float* src, int n) { std::memcpy(dst, src, sizeof(float) * n); }
inline void store_fence() {}
#endif

// A persistent pool: run(n, fn) calls fn(begin, end) over [0, n) in chunks on up to `threads`
// threads (the caller's included) and returns when all are done. The caller never waits for a
// worker that has not started: a worker joins a call only while it is open, and the caller closes
// it once every chunk is claimed, then waits only for the workers that joined. So a descheduled
// worker (a loaded machine) costs nothing but its share of the work. Workers spin briefly between
// calls (back-to-back step() calls reach them within the spin), then sleep.
class WorkerPool {
 public:
  explicit WorkerPool(int threads) : threads_(std::max(1, threads)) {
    try {
      for (int t = 1; t < threads_; ++t) workers_.emplace_back([this] { loop(); });
    } catch (...) {  // a thread that could not be started: end the others, then report it
      shutdown();
      throw;
    }
  }
  ~WorkerPool() { shutdown(); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  int threads() const { return threads_; }

  void run(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    if (threads_ == 1 || n < 2) {
      if (n > 0) fn(0, n);
      store_fence();
      return;
    }
    // Every thread of the call works under the caller's StopFlag (Ctrl-C, core/interrupt.hpp), or
    // the call's own: a chunk that throws stops the others (core/threads.hpp) and is rethrown here.
    StopFlag local;
    StopFlag* const outer = current_stop_flag();
    StopFlag* const flag = outer != nullptr ? outer : &local;
    const bool owner = outer != nullptr && tl_stop_owner;
    StopScope scope(flag, owner);
    ThreadFailure failure(flag);
    job_ = &fn;
    flag_ = flag;
    failure_ = &failure;
    chunk_ = std::max<int64_t>(1, std::min<int64_t>(32, n / (threads_ * 8)));
    range_.store(static_cast<uint64_t>(n), std::memory_order_relaxed);  // front 0, back n
    finished_.store(0, std::memory_order_relaxed);
    joined_.store(0, std::memory_order_release);  // opens the call (publishes the fields above)
    {
      std::lock_guard<std::mutex> lock(mu_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    work(true);
    store_fence();
    const int joined = joined_.fetch_or(kClosed, std::memory_order_acq_rel);
    for (int spin = 0; finished_.load(std::memory_order_acquire) != joined; ++spin) {
      if (spin < 2000) {
        std::this_thread::yield();
      } else {  // a long wait (searching opponents): keep polling for Ctrl-C meanwhile
        {
          std::unique_lock<std::mutex> lock(mu_);
          done_cv_.wait_for(lock, std::chrono::milliseconds(5), [&] { return finished_.load() == joined; });
        }
        stop_requested();
      }
    }
    job_ = nullptr;
    flag_ = nullptr;
    failure_ = nullptr;
    failure.rethrow();
  }

 private:
  static constexpr int kClosed = 1 << 30;

  void shutdown() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_.store(true);
      generation_.fetch_add(1);
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }

  // Unclaimed items are [front, back), packed in one word. The caller claims chunks from the front
  // and the workers from the back, so from one call to the next each thread mostly gets the same
  // games again and finds their states in its own cache (claiming in one order, two threads would
  // trade games and their cache lines at random).
  void work(bool from_front) {
    for (;;) {
      if (stop_requested()) return;  // Ctrl-C or a failed chunk: leave the rest undone
      uint64_t r = range_.load(std::memory_order_relaxed);
      int64_t begin, end;
      for (;;) {
        const int64_t front = static_cast<int64_t>(r >> 32), back = static_cast<int64_t>(r & 0xFFFFFFFFu);
        if (front >= back) return;
        if (from_front) {
          begin = front;
          end = std::min(back, front + chunk_);
        } else {
          begin = std::max(front, back - chunk_);
          end = back;
        }
        const uint64_t next = from_front ? (static_cast<uint64_t>(end) << 32) | static_cast<uint64_t>(back)
                                         : (static_cast<uint64_t>(front) << 32) | static_cast<uint64_t>(begin);
        if (range_.compare_exchange_weak(r, next, std::memory_order_relaxed)) break;
      }
      try {
        if (!from_front) test_failure_point();  // a worker's chunk
        (*job_)(begin, end);
      } catch (...) {
        failure_->capture();
        return;
      }
    }
  }
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      for (int spin = 0; spin < 4000 && generation_.load(std::memory_order_acquire) == seen; ++spin)
        std::this_thread::yield();
      if (generation_.load(std::memory_order_acquire) == seen) {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return generation_.load() != seen; });
      }
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load()) return;
      // Join the open call, if any (it may already be a later one than `seen`: then help with it).
      if (joined_.fetch_add(1, std::memory_order_acq_rel) & kClosed) continue;
      {
        StopScope scope(flag_);
        work(false);
      }
      store_fence();  // this thread's streaming stores are done before it reports
      finished_.fetch_add(1, std::memory_order_acq_rel);
      std::lock_guard<std::mutex> lock(mu_);
      done_cv_.notify_all();
    }
  }

  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> joined_{kClosed};
  std::atomic<int> finished_{0};
  std::atomic<bool> stop_{false};
  const std::function<void(int64_t, int64_t)>* job_ = nullptr;
  int64_t chunk_ = 1;
  std::atomic<uint64_t> range_{0};  // (front << 32) | back; num_envs <= 2^22
  StopFlag* flag_ = nullptr;          // of the open call
  ThreadFailure* failure_ = nullptr;  // of the open call
};

}  // namespace tilecraft
