// gr_bench: GNU Radio 3.10 peer for radioflow's scheduler benchmarks.
//
// Reproduces the flowgraphs of Bloessl et al., "Benchmarking and Profiling the
// GNU Radio Scheduler" (GRCon 2019): the message-passing fork (Fig. 2), the
// stream fork of copy blocks (Fig. 1/3) and the four-branch optimisation
// experiment (Fig. 7/8); and the GNU Radio maintainer's performance-counter
// experiment (null source -> head -> FIR filter(s) -> null sink, with the
// performance counters off or on and thread affinity off or on); and the
// `buf` graph profiled (Fig. 5: context switches per thread, Fig. 6: items
// produced per work call). Flowgraphs are built programmatically in C++ and
// the custom blocks (message forwarder, n-copy "scheduler emulation",
// counting copy) are C++ blocks, so that the measurement is of the GNU Radio
// runtime, not of Python.
//
// One run per invocation. Exactly one JSON line goes to stdout; everything
// else (GNU Radio's own logging, warnings) goes to stderr.

#include <gnuradio/block.h>
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/null_source.h>
#include <gnuradio/constants.h>
#include <gnuradio/filter/fir_filter_blk.h>
#include <gnuradio/prefs.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/realtime.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/top_block.h>
#include <pmt/pmt.h>

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr size_t kMsgBytes = 500;         // message size used by the paper
constexpr size_t kItem = sizeof(float);   // all stream experiments use f32
constexpr long kGrDefaultBufferBytes = 2 * 32768; // GR_FIXED_BUFFER_SIZE * 2

// ---------------------------------------------------------------------------
// Custom blocks
// ---------------------------------------------------------------------------

// Message forwarder: message port "in" -> "out", no processing. Counts what it
// handled so the harness can verify that every message reached every chain
// end. The handler runs on the block's own scheduler thread only, so the
// counter needs no synchronisation; it is read after top_block::run() joined
// all threads.
class msg_forward : public gr::block
{
public:
    using sptr = std::shared_ptr<msg_forward>;
    static sptr make(bool check_payload)
    {
        return gnuradio::make_block_sptr<msg_forward>(check_payload);
    }

    explicit msg_forward(bool check_payload)
        : gr::block("msg_forward",
                    gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_port_in(pmt::mp("in")),
          d_port_out(pmt::mp("out")),
          d_check(check_payload)
    {
        message_port_register_in(d_port_in);
        message_port_register_out(d_port_out);
        set_msg_handler(d_port_in, [this](const pmt::pmt_t& msg) { handle(msg); });
    }

    uint64_t received() const { return d_received; }
    uint64_t bad_payload() const { return d_bad; }

private:
    void handle(const pmt::pmt_t& msg)
    {
        d_received++;
        if (d_check) {
            // PDU pair (meta . u8vector[500]); cheap structural check.
            if (!pmt::is_pair(msg) || !pmt::is_u8vector(pmt::cdr(msg)) ||
                pmt::blob_length(pmt::cdr(msg)) != kMsgBytes) {
                d_bad++;
            }
        }
        message_port_pub(d_port_out, msg);
    }

    const pmt::pmt_t d_port_in;
    const pmt::pmt_t d_port_out;
    const bool d_check;
    uint64_t d_received = 0;
    uint64_t d_bad = 0;
};

// "Scheduler emulation" (paper Sec. 7): one block that performs the work of S
// chained copy blocks. Each chunk (L1-sized) of the input is copied
// sequentially in -> buf[0] -> buf[1] -> ... -> buf[S-2] -> out, i.e. S
// memcpy per chunk, with the chunk staying hot in L1 between the copies.
// The memcpy targets are heap buffers owned by the block (visible to other
// translation units), and a compiler barrier separates the copies, so none of
// them can be elided at -O2.
class ncopy : public gr::sync_block
{
public:
    using sptr = std::shared_ptr<ncopy>;
    static sptr make(int stages, size_t chunk_items)
    {
        return gnuradio::make_block_sptr<ncopy>(stages, chunk_items);
    }

    ncopy(int stages, size_t chunk_items)
        : gr::sync_block("ncopy",
                         gr::io_signature::make(1, 1, kItem),
                         gr::io_signature::make(1, 1, kItem)),
          d_stages(stages),
          d_chunk(std::max<size_t>(1, chunk_items))
    {
        if (stages < 1)
            throw std::invalid_argument("ncopy: stages must be >= 1");
        for (int i = 0; i < stages - 1; i++)
            d_bufs.emplace_back(d_chunk, 0.0f);
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        const float* in = static_cast<const float*>(input_items[0]);
        float* out = static_cast<float*>(output_items[0]);
        const size_t n = static_cast<size_t>(noutput_items);

        for (size_t off = 0; off < n; off += d_chunk) {
            const size_t len = std::min(d_chunk, n - off);
            const size_t bytes = len * kItem;
            if (d_stages == 1) {
                std::memcpy(out + off, in + off, bytes);
                continue;
            }
            std::memcpy(d_bufs[0].data(), in + off, bytes);
            barrier();
            for (int i = 1; i < d_stages - 1; i++) {
                std::memcpy(d_bufs[i].data(), d_bufs[i - 1].data(), bytes);
                barrier();
            }
            std::memcpy(out + off, d_bufs[d_stages - 2].data(), bytes);
            barrier();
        }
        return noutput_items;
    }

private:
    static inline void barrier() { asm volatile("" ::: "memory"); }

    const int d_stages;
    const size_t d_chunk;
    std::vector<std::vector<float>> d_bufs;
};

// ---------------------------------------------------------------------------
// Thread accounting (resched): context switches as the kernel counts them
// ---------------------------------------------------------------------------

struct switches_t {
    uint64_t voluntary = 0;
    uint64_t involuntary = 0;
};

switches_t operator-(const switches_t& a, const switches_t& b)
{
    return { a.voluntary - b.voluntary, a.involuntary - b.involuntary };
}

pid_t current_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

// getrusage(RUSAGE_THREAD): the calling thread since it started;
// getrusage(RUSAGE_SELF): every thread of the process, including the ones that
// have exited (the kernel folds a thread's counts into the process's when it
// exits).
bool rusage_switches(int who, switches_t& out)
{
    struct rusage u;
    std::memset(&u, 0, sizeof u);
    if (getrusage(who, &u) != 0)
        return false;
    out.voluntary = static_cast<uint64_t>(u.ru_nvcsw);
    out.involuntary = static_cast<uint64_t>(u.ru_nivcsw);
    return true;
}

// The thread ids of this process (/proc/self/task).
std::vector<pid_t> task_ids()
{
    std::vector<pid_t> ids;
    if (DIR* d = opendir("/proc/self/task")) {
        while (struct dirent* e = readdir(d)) {
            if (e->d_name[0] != '.')
                ids.push_back(static_cast<pid_t>(std::atol(e->d_name)));
        }
        closedir(d);
    }
    return ids;
}

// Another live thread's counts, from /proc/self/task/<tid>/status.
bool task_switches(pid_t tid, switches_t& out)
{
    std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/status");
    const std::string vol = "voluntary_ctxt_switches:";
    const std::string inv = "nonvoluntary_ctxt_switches:";
    bool have_v = false, have_i = false;
    std::string line;
    while (std::getline(f, line)) {
        if (line.compare(0, vol.size(), vol) == 0) {
            out.voluntary = std::stoull(line.substr(vol.size()));
            have_v = true;
        } else if (line.compare(0, inv.size(), inv) == 0) {
            out.involuntary = std::stoull(line.substr(inv.size()));
            have_i = true;
        }
    }
    return have_v && have_i;
}

std::string policy_name(int policy)
{
    switch (policy) {
    case SCHED_OTHER: return "SCHED_OTHER";
    case SCHED_FIFO: return "SCHED_FIFO";
    case SCHED_RR: return "SCHED_RR";
#ifdef SCHED_BATCH
    case SCHED_BATCH: return "SCHED_BATCH";
#endif
#ifdef SCHED_IDLE
    case SCHED_IDLE: return "SCHED_IDLE";
#endif
    default: return "policy-" + std::to_string(policy);
    }
}

// Bin k of the items-per-call histogram: calls that produced n items with
// 2^k <= n < 2^(k+1) (0 and 1 both in bin 0), as radioflow bins them.
constexpr size_t kHistBins = 32;
size_t log2_bin(int n)
{
    size_t k = 0;
    for (unsigned v = static_cast<unsigned>(std::max(n, 1)); v > 1; v >>= 1)
        k++;
    return std::min(k, kHistBins - 1);
}

// A copy block that records what the scheduler did with it: how many items
// each general_work call produced (log2 histogram, Fig. 6) and the context
// switches of the thread that ran it (Fig. 5).
//
// It is scheduled as gr::blocks::copy is: a general gr::block (not a
// sync_block, whose fixed rate would change how block_executor sizes calls),
// one f32 input and output, a forecast asking for as many input items as
// output items, and an "en" message port (the thread-per-block loop polls
// every message port each iteration).
//
// Where the counts are read: in GNU Radio 3.10 the thread-per-block thread
// constructs tpb_thread_body, whose block_executor member calls the block's
// start() in its constructor and stop() in its destructor, so start() and
// stop() run on the block's own thread, stop() after its last work call, just
// before the thread returns. getrusage(RUSAGE_THREAD) in stop() therefore
// reads the whole life of the block's thread, as radioflow reads its threads
// at their end. The thread ids seen in start(), general_work() and stop() are
// kept so the run can prove it.
class counting_copy : public gr::block
{
public:
    using sptr = std::shared_ptr<counting_copy>;

    // Called once, by the first work call of any counting_copy of the run.
    struct census_t {
        std::atomic<bool> taken{ false };
        size_t tasks = 0;
    };

    static sptr make(census_t* census)
    {
        return gnuradio::make_block_sptr<counting_copy>(census);
    }

    explicit counting_copy(census_t* census)
        : gr::block("counting_copy",
                    gr::io_signature::make(1, 1, kItem),
                    gr::io_signature::make(1, 1, kItem)),
          d_census(census)
    {
        message_port_register_in(pmt::mp("en"));
        set_msg_handler(pmt::mp("en"), [this](const pmt::pmt_t& msg) {
            if (pmt::is_bool(msg))
                d_enabled = pmt::to_bool(msg);
        });
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        for (auto& n : ninput_items_required)
            n = noutput_items;
    }

    bool start() override
    {
        d_start_tid = current_tid();
        struct sched_param sp;
        if (pthread_getschedparam(pthread_self(), &d_policy, &sp) == 0)
            d_priority = sp.sched_priority;
        return gr::block::start();
    }

    bool stop() override
    {
        d_stop_tid = current_tid();
        d_have_switches = rusage_switches(RUSAGE_THREAD, d_switches);
        return gr::block::stop();
    }

    int general_work(int noutput_items,
                     gr_vector_int& /*ninput_items*/,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        int n = 0;
        if (d_enabled) {
            std::memcpy(output_items[0], input_items[0], noutput_items * kItem);
            n = noutput_items;
        }
        consume_each(noutput_items);
        if (d_work_tid == 0) {
            d_work_tid = current_tid();
            if (d_census && !d_census->taken.exchange(true))
                d_census->tasks = task_ids().size();
        }
        d_calls++;
        d_items += static_cast<uint64_t>(n);
        d_hist[log2_bin(n)]++;
        return n;
    }

    uint64_t calls() const { return d_calls; }
    uint64_t items() const { return d_items; }
    const std::array<uint64_t, kHistBins>& hist() const { return d_hist; }
    bool have_switches() const { return d_have_switches; }
    const switches_t& switches() const { return d_switches; }
    int policy() const { return d_policy; }
    int priority() const { return d_priority; }
    // start(), the work calls (if any) and stop() all ran on one thread, not
    // the caller of top_block::run().
    bool ran_on_own_thread(pid_t main_tid) const
    {
        return d_start_tid != 0 && d_start_tid != main_tid &&
               (d_work_tid == 0 || d_start_tid == d_work_tid) && d_start_tid == d_stop_tid;
    }

private:
    census_t* const d_census;
    bool d_enabled = true;
    uint64_t d_calls = 0;
    uint64_t d_items = 0;
    std::array<uint64_t, kHistBins> d_hist{};
    pid_t d_start_tid = 0, d_work_tid = 0, d_stop_tid = 0;
    int d_policy = -1, d_priority = -1;
    bool d_have_switches = false;
    switches_t d_switches;
};

// ---------------------------------------------------------------------------
// Machine helpers
// ---------------------------------------------------------------------------

long l1d_bytes()
{
    long v = -1;
#ifdef _SC_LEVEL1_DCACHE_SIZE
    v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
#endif
    if (v > 0)
        return v;
    // sysfs fallback: index0 of cpu0 is normally the L1 data cache.
    for (int idx = 0; idx < 4; idx++) {
        std::string base = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx);
        std::ifstream lvl(base + "/level"), typ(base + "/type"), sz(base + "/size");
        int level = 0;
        std::string type, size;
        if (!(lvl >> level) || !(typ >> type) || !(sz >> size))
            continue;
        if (level == 1 && (type == "Data" || type == "Unified")) {
            long mult = 1;
            char suffix = size.empty() ? '\0' : size.back();
            if (suffix == 'K') mult = 1024;
            if (suffix == 'M') mult = 1024 * 1024;
            long num = std::atol(size.c_str());
            if (num > 0)
                return num * mult;
        }
    }
    return 32 * 1024; // conservative default
}

std::vector<int> allowed_cpus()
{
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                cpus.push_back(c);
    }
    if (cpus.empty()) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (int c = 0; c < std::max(1L, n); c++)
            cpus.push_back(c);
    }
    return cpus;
}

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

struct args_t {
    std::string experiment;
    long pipes = -1;
    long stages = -1;
    uint64_t samples = 0;
    bool have_samples = false;
    long burst = -1;
    bool rt = false;
    std::string rt_policy = "rr"; // rr: gr::enable_realtime_scheduling(); fifo: SCHED_FIFO 50
    std::string config = "default";
    // counters
    long taps = 100;
    bool perfcounters = false;
    bool affinity = false;
};

[[noreturn]] void usage(const std::string& err)
{
    if (!err.empty())
        std::cerr << "gr_bench: " << err << "\n";
    std::cerr
        << "usage:\n"
           "  gr_bench buf  --pipes P --stages S --samples N [--rt] [--config default|tuned]\n"
           "  gr_bench msg  --pipes P --stages S --burst B [--rt]\n"
           "  gr_bench opti --stages S --samples N [--pipes 4] [--rt]\n"
           "                --config default|tuned|emulation\n"
           "  gr_bench counters --stages K --samples N [--taps 100]\n"
           "                [--perfcounters on|off] [--affinity on|off]\n"
           "  gr_bench resched|items --pipes P --stages S --samples N [--rt]\n"
           "--rt: real-time priority; --rt-policy rr (default: GNU Radio's\n"
           "gr::enable_realtime_scheduling(), SCHED_RR) or fifo (SCHED_FIFO 50).\n"
           "N accepts integers or scientific notation (1e8).\n";
    std::exit(2);
}

uint64_t parse_count(const std::string& name, const std::string& s)
{
    char* end = nullptr;
    errno = 0;
    // integers first (exact for large values), then scientific notation
    unsigned long long iv = std::strtoull(s.c_str(), &end, 10);
    if (errno == 0 && end && *end == '\0' && !s.empty() && s[0] != '-')
        return iv;
    errno = 0;
    long double dv = std::strtold(s.c_str(), &end);
    if (errno != 0 || !end || *end != '\0' || !(dv >= 0) || dv > 1.8e19L ||
        std::floor(dv) != dv)
        usage("invalid value for " + name + ": '" + s + "'");
    return static_cast<uint64_t>(dv);
}

args_t parse_args(int argc, char** argv)
{
    if (argc < 2)
        usage("missing experiment");
    args_t a;
    a.experiment = argv[1];
    if (a.experiment == "-h" || a.experiment == "--help")
        usage("");
    if (a.experiment != "buf" && a.experiment != "msg" && a.experiment != "opti" &&
        a.experiment != "counters" && a.experiment != "resched" && a.experiment != "items")
        usage("unknown experiment '" + a.experiment + "'");
    for (int i = 2; i < argc; i++) {
        std::string k = argv[i];
        auto val = [&](void) -> std::string {
            if (i + 1 >= argc)
                usage("missing value for " + k);
            return argv[++i];
        };
        if (k == "--pipes")
            a.pipes = static_cast<long>(parse_count(k, val()));
        else if (k == "--stages")
            a.stages = static_cast<long>(parse_count(k, val()));
        else if (k == "--samples") {
            a.samples = parse_count(k, val());
            a.have_samples = true;
        } else if (k == "--burst")
            a.burst = static_cast<long>(parse_count(k, val()));
        else if (k == "--config")
            a.config = val();
        else if (k == "--rt")
            a.rt = true;
        else if (k == "--rt-policy") {
            a.rt_policy = val();
            if (a.rt_policy != "rr" && a.rt_policy != "fifo")
                usage("--rt-policy is rr or fifo");
        }
        else if (k == "--taps")
            a.taps = static_cast<long>(parse_count(k, val()));
        else if (k == "--perfcounters")
            a.perfcounters = val() == "on";
        else if (k == "--affinity")
            a.affinity = val() == "on";
        else if (k == "-h" || k == "--help")
            usage("");
        else
            usage("unknown option '" + k + "'");
    }
    if ((a.experiment == "opti" && a.pipes < 0) || a.experiment == "counters")
        a.pipes = a.experiment == "opti" ? 4 : 1;
    if (a.pipes < 1)
        usage("--pipes must be >= 1");
    if (a.stages < 1)
        usage("--stages must be >= 1");
    if (a.experiment == "msg") {
        if (a.burst < 0)
            usage("msg needs --burst B");
        if (a.config != "default")
            usage("msg only supports --config default");
    } else {
        if (!a.have_samples)
            usage(a.experiment + " needs --samples N");
        if (a.experiment == "buf" && a.config != "default" && a.config != "tuned")
            usage("buf supports --config default|tuned");
        if (a.experiment == "opti" && a.config != "default" && a.config != "tuned" &&
            a.config != "emulation")
            usage("opti supports --config default|tuned|emulation");
        if ((a.experiment == "resched" || a.experiment == "items") && a.config != "default")
            usage(a.experiment + " only supports --config default");
    }
    return a;
}

// ---------------------------------------------------------------------------
// Tuning (paper Sec. 7 "Manual Optimization")
// ---------------------------------------------------------------------------

struct tuning_t {
    long l1d = 0;
    long buffer_items = 0;   // requested output buffer size (2 x L1d)
    int max_noutput = 0;     // max items per work call (L1d)
    std::vector<int> cpus;
};

tuning_t make_tuning()
{
    tuning_t t;
    t.l1d = l1d_bytes();
    t.buffer_items = 2 * t.l1d / static_cast<long>(kItem);
    t.max_noutput = static_cast<int>(t.l1d / static_cast<long>(kItem));
    t.cpus = allowed_cpus();
    return t;
}

// Apply buffer size and max_noutput_items; GR only lets max_output_buffer
// shrink its default (64 KiB) and min_output_buffer grow it, so pick the one
// that moves it toward the target.
void apply_buffers(const gr::block_sptr& b, const tuning_t& t)
{
    if (b->output_signature()->max_streams() != 0) {
        const long def_items = kGrDefaultBufferBytes / static_cast<long>(kItem);
        if (t.buffer_items <= def_items)
            b->set_max_output_buffer(t.buffer_items);
        else
            b->set_min_output_buffer(t.buffer_items);
    }
    b->set_max_noutput_items(t.max_noutput);
}

void pin(const gr::block_sptr& b, int cpu) { b->set_processor_affinity({ cpu }); }

// ---------------------------------------------------------------------------
// JSON helpers
// ---------------------------------------------------------------------------

std::string jstr(const std::string& s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            o += buf;
        } else
            o += c;
    }
    return o + "\"";
}

struct result_t {
    double seconds = 0;
    bool verified = false;
    std::string details; // JSON object body (without braces)
};

// Time top_block::run() only (start + wait), as the paper does.
double time_run(const gr::top_block_sptr& tb)
{
    auto t0 = std::chrono::steady_clock::now();
    tb->run();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
}

// ---------------------------------------------------------------------------
// Experiments
// ---------------------------------------------------------------------------

// Fig. 1/3: null_source -> head(N) -> P x (S copies -> null_sink)
result_t run_buf(const args_t& a)
{
    auto tb = gr::make_top_block("buf");
    const bool tuned = a.config == "tuned";
    tuning_t t;
    if (tuned)
        t = make_tuning();

    auto src = gr::blocks::null_source::make(kItem);
    auto head = gr::blocks::head::make(kItem, a.samples);
    tb->connect(src, 0, head, 0);
    if (tuned) {
        apply_buffers(src, t);
        apply_buffers(head, t);
    }

    std::vector<gr::blocks::null_sink::sptr> sinks;
    gr::blocks::copy::sptr probe_copy;
    for (long p = 0; p < a.pipes; p++) {
        const int cpu = tuned ? t.cpus[p % t.cpus.size()] : -1;
        gr::basic_block_sptr prev = head;
        for (long s = 0; s < a.stages; s++) {
            auto c = gr::blocks::copy::make(kItem);
            if (tuned) {
                apply_buffers(c, t);
                pin(c, cpu);
            }
            if (!probe_copy)
                probe_copy = c;
            tb->connect(prev, 0, c, 0);
            prev = c;
        }
        auto snk = gr::blocks::null_sink::make(kItem);
        if (tuned) {
            apply_buffers(snk, t);
            pin(snk, cpu);
        }
        tb->connect(prev, 0, snk, 0);
        sinks.push_back(snk);
    }

    result_t r;
    r.seconds = time_run(tb);

    uint64_t mn = UINT64_MAX, mx = 0;
    for (auto& s : sinks) {
        uint64_t n = s->nitems_read(0);
        mn = std::min(mn, n);
        mx = std::max(mx, n);
    }
    r.verified = (mn == a.samples && mx == a.samples && head->nitems_written(0) == a.samples);
    std::ostringstream d;
    d << "\"sink_items_min\":" << mn << ",\"sink_items_max\":" << mx
      << ",\"blocks\":" << (2 + a.pipes * (a.stages + 1))
      << ",\"copy_buffer_items\":" << probe_copy->max_output_buffer(0);
    if (tuned)
        d << ",\"l1d_bytes\":" << t.l1d << ",\"max_noutput_items\":" << t.max_noutput
          << ",\"pinning\":\"pipe p -> cpu p % ncpus; source/head unpinned\"";
    r.details = d.str();
    return r;
}

// Fig. 2: source forwarder -> P x (S forwarders); burst of B 500-byte PDUs
// queued on the source before start, followed by a "done" system message.
result_t run_msg(const args_t& a)
{
    auto tb = gr::make_top_block("msg");

    auto src = msg_forward::make(false);
    std::vector<msg_forward::sptr> all{ src };
    std::vector<msg_forward::sptr> lasts;
    for (long p = 0; p < a.pipes; p++) {
        msg_forward::sptr prev = src;
        for (long s = 0; s < a.stages; s++) {
            const bool last = (s == a.stages - 1);
            auto f = msg_forward::make(last);
            tb->msg_connect(prev, "out", f, "in");
            all.push_back(f);
            prev = f;
        }
        lasts.push_back(prev);
    }

    // Preallocate the burst (distinct PDUs, 500 bytes each), then post it and
    // the shutdown request. GNU Radio's msg_queue_comparator orders the
    // "system" queue first, so the source handles "done" (sets finished) and
    // then drains its whole "in" queue in the same loop iteration before
    // tpb_thread_body sees finished() and exits; on exit it posts
    // ("done" . #t) to the system port of every message subscriber
    // (block::notify_msg_neighbors), which cascades down each chain after the
    // data messages, which were queued earlier.
    std::vector<pmt::pmt_t> burst;
    burst.reserve(static_cast<size_t>(a.burst));
    for (long i = 0; i < a.burst; i++)
        burst.push_back(pmt::cons(pmt::PMT_NIL, pmt::make_u8vector(kMsgBytes, 0x42)));
    for (auto& m : burst)
        src->post(pmt::mp("in"), m);
    src->post(pmt::mp("system"), pmt::cons(pmt::mp("done"), pmt::from_long(1)));

    result_t r;
    r.seconds = time_run(tb);

    uint64_t mn = UINT64_MAX, mx = 0, bad = 0;
    for (auto& f : lasts) {
        mn = std::min(mn, f->received());
        mx = std::max(mx, f->received());
        bad += f->bad_payload();
    }
    bool all_ok = true;
    for (auto& f : all)
        all_ok = all_ok && f->received() == static_cast<uint64_t>(a.burst);
    r.verified = all_ok && bad == 0 && mn == static_cast<uint64_t>(a.burst) &&
                 mx == static_cast<uint64_t>(a.burst);
    std::ostringstream d;
    d << "\"last_received_min\":" << mn << ",\"last_received_max\":" << mx
      << ",\"bad_payloads\":" << bad << ",\"blocks\":" << all.size()
      << ",\"msg_bytes\":" << kMsgBytes;
    r.details = d.str();
    return r;
}

// Fig. 7/8: P independent branches null_source -> head(N) -> S copies -> sink
result_t run_opti(const args_t& a)
{
    auto tb = gr::make_top_block("opti");
    const bool tuned = a.config == "tuned";
    const bool emul = a.config == "emulation";
    tuning_t t = make_tuning();

    std::vector<gr::blocks::null_sink::sptr> sinks;
    std::vector<gr::blocks::head::sptr> heads;
    gr::block_sptr probe;
    for (long p = 0; p < a.pipes; p++) {
        const int cpu = t.cpus[p % t.cpus.size()];
        std::vector<gr::block_sptr> branch;
        auto src = gr::blocks::null_source::make(kItem);
        auto head = gr::blocks::head::make(kItem, a.samples);
        tb->connect(src, 0, head, 0);
        branch.push_back(src);
        branch.push_back(head);
        gr::basic_block_sptr prev = head;
        if (emul) {
            auto nc = ncopy::make(static_cast<int>(a.stages),
                                  static_cast<size_t>(t.l1d) / kItem);
            tb->connect(prev, 0, nc, 0);
            branch.push_back(nc);
            prev = nc;
            if (!probe)
                probe = nc;
        } else {
            for (long s = 0; s < a.stages; s++) {
                auto c = gr::blocks::copy::make(kItem);
                tb->connect(prev, 0, c, 0);
                branch.push_back(c);
                prev = c;
                if (!probe)
                    probe = c;
            }
        }
        auto snk = gr::blocks::null_sink::make(kItem);
        tb->connect(prev, 0, snk, 0);
        branch.push_back(snk);
        sinks.push_back(snk);
        heads.push_back(head);
        if (tuned || emul) {
            for (auto& b : branch) {
                apply_buffers(b, t);
                pin(b, cpu);
            }
        }
    }

    result_t r;
    r.seconds = time_run(tb);

    uint64_t mn = UINT64_MAX, mx = 0;
    for (auto& s : sinks) {
        uint64_t n = s->nitems_read(0);
        mn = std::min(mn, n);
        mx = std::max(mx, n);
    }
    bool heads_ok = true;
    for (auto& h : heads)
        heads_ok = heads_ok && h->nitems_written(0) == a.samples;
    r.verified = heads_ok && mn == a.samples && mx == a.samples;
    std::ostringstream d;
    d << "\"sink_items_min\":" << mn << ",\"sink_items_max\":" << mx
      << ",\"buffer_items\":" << probe->max_output_buffer(0)
      << ",\"l1d_bytes\":" << t.l1d << ",\"ncpus\":" << t.cpus.size();
    if (tuned || emul)
        d << ",\"max_noutput_items\":" << t.max_noutput
          << ",\"pinning\":\"branch i -> cpu i % ncpus (all blocks of the branch)\"";
    if (emul)
        d << ",\"ncopy_chunk_items\":" << (t.l1d / static_cast<long>(kItem))
          << ",\"memcpy_per_chunk\":" << a.stages;
    r.details = d.str();
    return r;
}

// The taps of FIR number f (k = 0..n-1): splitmix64 values in [0, 1), the same
// sequence radioflow's counters experiment uses (crates/bench/src/counters/run.rs).
std::vector<float> counter_taps(long f, long n)
{
    std::vector<float> t;
    uint64_t s = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(f + 1);
    for (long k = 0; k < n; k++) {
        s += 0x9E3779B97F4A7C15ULL;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        t.push_back(static_cast<float>(z >> 40) / 16777216.0f);
    }
    return t;
}

// Maintainer's notes: null_source -> head(N) -> K x fir_filter_ccf(taps) ->
// null_sink, gr_complex items. Performance counters via the [PerfCounters] on
// preference (what GR_CONF_PERFCOUNTERS_ON sets); affinity as in the notes:
// source, head and sink on the first CPU, the filters on the others in turn.
result_t run_counters(const args_t& a)
{
    gr::prefs::singleton()->set_bool("PerfCounters", "on", a.perfcounters);
    auto tb = gr::make_top_block("counters");
    auto cpus = allowed_cpus();
    auto src = gr::blocks::null_source::make(sizeof(gr_complex));
    auto head = gr::blocks::head::make(sizeof(gr_complex), a.samples);
    auto snk = gr::blocks::null_sink::make(sizeof(gr_complex));
    tb->connect(src, 0, head, 0);
    gr::basic_block_sptr prev = head;
    for (long f = 0; f < a.stages; f++) {
        auto fir = gr::filter::fir_filter_ccf::make(1, counter_taps(f, a.taps));
        if (a.affinity)
            pin(fir, cpus[(1 + f) % cpus.size()]);
        tb->connect(prev, 0, fir, 0);
        prev = fir;
    }
    tb->connect(prev, 0, snk, 0);
    if (a.affinity) {
        pin(src, cpus[0]);
        pin(head, cpus[0]);
        pin(snk, cpus[0]);
    }
    result_t r;
    r.seconds = time_run(tb);
    r.verified = snk->nitems_read(0) == a.samples;
    std::ostringstream d;
    d << "\"sink_items\":" << snk->nitems_read(0) << ",\"taps\":" << a.taps
      << ",\"perfcounters\":" << (a.perfcounters ? "true" : "false")
      << ",\"perfcounters_pref\":"
      << (gr::prefs::singleton()->get_bool("PerfCounters", "on", false) ? "true" : "false")
      << ",\"affinity\":" << (a.affinity ? "true" : "false");
    r.details = d.str();
    return r;
}

// Fig. 5/6: the buf graph (null_source -> head(N) -> P x (S copies ->
// null_sink)), the copies being counting_copy blocks, profiled.
//
// Context switches of every block thread: GNU Radio starts one thread per
// block inside top_block::run() and joins them before it returns, so their sum
// is getrusage(RUSAGE_SELF) after run() minus before run(), minus the main
// thread's own switches (RUSAGE_THREAD) and those of any thread that already
// existed (read from /proc/self/task/<tid>/status before and after). That sum
// is exact however threads end. Per thread: each copy block's thread, read by
// the block itself in stop() (see counting_copy); the source, head and sink
// threads (stock GNU Radio blocks) are given together as the rest.
result_t run_profiled(const args_t& a)
{
    auto tb = gr::make_top_block(a.experiment);
    counting_copy::census_t census;
    auto src = gr::blocks::null_source::make(kItem);
    auto head = gr::blocks::head::make(kItem, a.samples);
    tb->connect(src, 0, head, 0);
    std::vector<counting_copy::sptr> copies;
    std::vector<gr::blocks::null_sink::sptr> sinks;
    for (long p = 0; p < a.pipes; p++) {
        gr::basic_block_sptr prev = head;
        for (long s = 0; s < a.stages; s++) {
            auto c = counting_copy::make(&census);
            tb->connect(prev, 0, c, 0);
            copies.push_back(c);
            prev = c;
        }
        auto snk = gr::blocks::null_sink::make(kItem);
        tb->connect(prev, 0, snk, 0);
        sinks.push_back(snk);
    }
    const long blocks = 2 + a.pipes * (a.stages + 1);

    const pid_t main_tid = current_tid();
    std::map<pid_t, switches_t> others_before;
    for (pid_t t : task_ids()) {
        switches_t sw;
        if (t != main_tid && task_switches(t, sw))
            others_before[t] = sw;
    }
    switches_t self_before, main_before, self_after, main_after;
    bool rusage_ok = rusage_switches(RUSAGE_SELF, self_before) &&
                     rusage_switches(RUSAGE_THREAD, main_before);

    result_t r;
    r.seconds = time_run(tb);

    rusage_ok = rusage_ok && rusage_switches(RUSAGE_THREAD, main_after) &&
                rusage_switches(RUSAGE_SELF, self_after);
    switches_t others;
    bool others_ok = true; // every earlier thread still there, so its share is known
    for (auto& [t, before] : others_before) {
        switches_t now;
        if (!task_switches(t, now)) {
            others_ok = false;
            continue;
        }
        others.voluntary += (now - before).voluntary;
        others.involuntary += (now - before).involuntary;
    }
    const switches_t total = (self_after - self_before) - (main_after - main_before) - others;

    uint64_t calls = 0, items = 0;
    std::array<uint64_t, kHistBins> hist{};
    switches_t copy_sum;
    bool own_threads = true, copies_ok = true, have_switches = true;
    std::ostringstream per_thread;
    for (size_t i = 0; i < copies.size(); i++) {
        const auto& c = *copies[i];
        calls += c.calls();
        items += c.items();
        for (size_t k = 0; k < kHistBins; k++)
            hist[k] += c.hist()[k];
        copy_sum.voluntary += c.switches().voluntary;
        copy_sum.involuntary += c.switches().involuntary;
        own_threads = own_threads && c.ran_on_own_thread(main_tid);
        copies_ok = copies_ok && c.items() == a.samples;
        have_switches = have_switches && c.have_switches();
        per_thread << (i ? "," : "") << "{\"pipe\":" << i / a.stages
                   << ",\"stage\":" << i % a.stages
                   << ",\"voluntary\":" << c.switches().voluntary
                   << ",\"involuntary\":" << c.switches().involuntary << "}";
    }
    uint64_t hist_calls = 0;
    std::ostringstream bins;
    for (size_t k = 0; k < kHistBins; k++) {
        hist_calls += hist[k];
        bins << (k ? "," : "") << hist[k];
    }
    uint64_t mn = UINT64_MAX, mx = 0;
    for (auto& s : sinks) {
        mn = std::min(mn, s->nitems_read(0));
        mx = std::max(mx, s->nitems_read(0));
    }
    // Every thread but main and the earlier ones is a block thread, so the
    // copies' own readings cannot exceed the total.
    const bool accounted = rusage_ok && others_ok && have_switches && own_threads &&
                           copy_sum.voluntary <= total.voluntary &&
                           copy_sum.involuntary <= total.involuntary;
    const uint64_t expected_items =
        a.samples * static_cast<uint64_t>(a.pipes) * static_cast<uint64_t>(a.stages);
    r.verified = mn == a.samples && mx == a.samples && head->nitems_written(0) == a.samples &&
                 copies_ok && items == expected_items && hist_calls == calls && accounted;
    if (!accounted)
        std::cerr << "gr_bench: context switches not fully accounted (rusage " << rusage_ok
                  << ", earlier threads still alive " << others_ok << ", stop() on the block's "
                  << "thread " << own_threads << ")\n";
    const long seen = census.taken ? static_cast<long>(census.tasks) - 1 -
                                         static_cast<long>(others_before.size())
                                   : -1;
    if (seen > blocks)
        std::cerr << "gr_bench: " << seen << " threads besides main while running, " << blocks
                  << " blocks\n";

    const auto& probe = *copies.front();
    std::ostringstream d;
    d << "\"sink_items_min\":" << mn << ",\"sink_items_max\":" << mx << ",\"blocks\":" << blocks
      << ",\"copy_buffer_items\":" << copies.front()->max_output_buffer(0)
      // GNU Radio's thread-per-block scheduler: one thread per block.
      << ",\"threads\":" << blocks << ",\"threads_seen_running\":" << seen
      << ",\"threads_before_run\":" << others_before.size()
      << ",\"voluntary\":" << total.voluntary << ",\"involuntary\":" << total.involuntary
      << ",\"copy_voluntary\":" << copy_sum.voluntary
      << ",\"copy_involuntary\":" << copy_sum.involuntary
      << ",\"other_threads\":" << (blocks - static_cast<long>(copies.size()))
      << ",\"other_voluntary\":" << total.voluntary - copy_sum.voluntary
      << ",\"other_involuntary\":" << total.involuntary - copy_sum.involuntary
      << ",\"copy_threads\":[" << per_thread.str() << "]"
      << ",\"stop_on_block_thread\":" << (own_threads ? "true" : "false")
      << ",\"block_thread_policy\":" << jstr(policy_name(probe.policy()))
      << ",\"block_thread_priority\":" << probe.priority()
      << ",\"work_calls\":" << calls << ",\"items_produced\":" << items
      << ",\"produced_log2\":[" << bins.str() << "]";
    r.details = d.str();
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    args_t a = parse_args(argc, argv);

    // Real-time priority the GNU Radio way: set on the main thread before the
    // top block (and so its worker threads, which inherit it) is created.
    // GNU Radio's own call sets SCHED_RR; its public API has no FIFO variant,
    // so fifo sets SCHED_FIFO 50 (radioflow's tpb-rt) on the main thread
    // directly, which the block threads inherit the same way.
    bool rt_granted = false;
    std::string rt_status = "not_requested";
    if (a.rt) {
        gr::rt_status_t st;
        if (a.rt_policy == "fifo") {
            struct sched_param sp;
            std::memset(&sp, 0, sizeof sp);
            sp.sched_priority = 50;
            const int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
            st = rc == 0 ? gr::RT_OK : rc == EPERM ? gr::RT_NO_PRIVS : gr::RT_OTHER_ERROR;
        } else {
            st = gr::enable_realtime_scheduling();
        }
        switch (st) {
        case gr::RT_OK: rt_status = "ok"; break;
        case gr::RT_NOT_IMPLEMENTED: rt_status = "not_implemented"; break;
        case gr::RT_NO_PRIVS: rt_status = "no_privileges"; break;
        default: rt_status = "other_error"; break;
        }
        int pol = sched_getscheduler(0);
        rt_granted = (st == gr::RT_OK) && (pol == SCHED_RR || pol == SCHED_FIFO);
        if (!rt_granted)
            std::cerr << "gr_bench: WARNING: real-time scheduling not granted ("
                      << rt_status << "); running at normal priority\n";
    }

    result_t r;
    try {
        if (a.experiment == "buf")
            r = run_buf(a);
        else if (a.experiment == "msg")
            r = run_msg(a);
        else if (a.experiment == "counters")
            r = run_counters(a);
        else if (a.experiment == "resched" || a.experiment == "items")
            r = run_profiled(a);
        else
            r = run_opti(a);
    } catch (const std::exception& e) {
        std::cerr << "gr_bench: error: " << e.what() << "\n";
        return 1;
    }

    struct sched_param main_sp;
    int main_policy = -1, main_priority = -1;
    if (pthread_getschedparam(pthread_self(), &main_policy, &main_sp) == 0)
        main_priority = main_sp.sched_priority;

    std::ostringstream params;
    params << "\"pipes\":" << a.pipes << ",\"stages\":" << a.stages;
    if (a.experiment == "msg")
        params << ",\"burst\":" << a.burst;
    else
        params << ",\"samples\":" << a.samples;
    params << ",\"rt\":" << (a.rt ? "true" : "false");
    if (a.rt)
        params << ",\"rt_policy\":" << jstr(a.rt_policy);
    if (a.experiment == "counters")
        params << ",\"taps\":" << a.taps << ",\"counters\":" << jstr(a.perfcounters ? "on" : "off")
               << ",\"affinity\":" << jstr(a.affinity ? "on" : "off");

    char secs[64];
    std::snprintf(secs, sizeof secs, "%.9f", r.seconds);

    std::ostringstream o;
    o << "{\"experiment\":" << jstr(a.experiment) << ",\"runtime\":\"gnuradio\""
      << ",\"scheduler\":" << jstr(a.rt ? "tpb-rt" : "tpb")
      << ",\"config\":" << jstr(a.config) << ",\"params\":{" << params.str() << "}"
      << ",\"seconds\":" << secs << ",\"verified\":" << (r.verified ? "true" : "false")
      << ",\"gnuradio_version\":" << jstr(gr::version())
      << ",\"rt_granted\":" << (rt_granted ? "true" : "false")
      << ",\"rt_status\":" << jstr(rt_status) << ",\"main_thread_policy\":"
      << jstr(policy_name(main_policy)) << ",\"main_thread_priority\":" << main_priority
      << ",\"details\":{" << r.details << "}}";
    std::cout << o.str() << std::endl;

    if (!r.verified)
        std::cerr << "gr_bench: VERIFICATION FAILED: " << r.details << "\n";
    return r.verified ? 0 : 3;
}
