// GNU Radio's side of `radioflow bench fir`: its FIR kernels (gr::filter::kernel, VOLK dot
// products: what fir_filter_fff/ccf, the decimating ones and freq_xlating_fir_filter call)
// timed alone, without a flowgraph, on a cache-resident input processed over and over.
//
//   fir_kernels --kind real|complex --taps T --decimation D --samples N
//
// Input sample i (each component of a complex one) and tap k are fixed functions of i and k
// that radioflow's side computes the same way, so the two can compare outputs: the JSON line
// carries the sum of the first block's outputs (real and imaginary parts) besides the time.
#include <gnuradio/filter/fir_filter.h>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Input samples per block: 2^16 outputs' worth of input stays in L2 for small decimations.
constexpr unsigned long BLOCK_OUTPUTS = 4096;

float sample(unsigned long i) { return float((i * 7919) % 1000) / 1000.0f - 0.5f; }
float tap(unsigned long k) { return float((k * 31) % 17) / 17.0f - 0.5f; }

template <class T>
T make(unsigned long i);
template <>
float make<float>(unsigned long i) { return sample(i); }
template <>
gr_complex make<gr_complex>(unsigned long i) { return { sample(2 * i), sample(2 * i + 1) }; }

template <class T>
int run(unsigned taps_n, unsigned decimation, unsigned long samples)
{
    std::vector<float> taps(taps_n);
    for (unsigned k = 0; k < taps_n; k++)
        taps[k] = tap(k);
    gr::filter::kernel::fir_filter<T, T, float> fir(taps);
    const unsigned long in_len = BLOCK_OUTPUTS * decimation + taps_n - 1;
    std::vector<T> input(in_len);
    for (unsigned long i = 0; i < in_len; i++)
        input[i] = make<T>(i);
    std::vector<T> output(BLOCK_OUTPUTS);
    const unsigned long per_block = BLOCK_OUTPUTS * decimation;
    const unsigned long blocks = (samples + per_block - 1) / per_block;
    // One block untimed: its outputs are the checksum, and the caches and VOLK's dispatch
    // are warm when the clock starts.
    fir.filterNdec(output.data(), input.data(), BLOCK_OUTPUTS, decimation);
    std::complex<double> sum = 0;
    for (const T& y : output)
        sum += std::complex<double>(y);
    auto t0 = std::chrono::steady_clock::now();
    for (unsigned long b = 0; b < blocks; b++) {
        fir.filterNdec(output.data(), input.data(), BLOCK_OUTPUTS, decimation);
        // Keeps the calls from being merged or dropped.
        asm volatile("" : : "r"(output.data()) : "memory");
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"runtime\":\"gnuradio\",\"seconds\":%.9f,\"samples\":%lu,"
                "\"sum_re\":%.9g,\"sum_im\":%.9g}\n",
                seconds,
                blocks * per_block,
                sum.real(),
                sum.imag());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::string kind = "real";
    unsigned taps = 64, decimation = 1;
    unsigned long samples = 10000000;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--kind")
            kind = v;
        else if (k == "--taps")
            taps = std::strtoul(v.c_str(), nullptr, 10);
        else if (k == "--decimation")
            decimation = std::strtoul(v.c_str(), nullptr, 10);
        else if (k == "--samples")
            samples = std::strtoul(v.c_str(), nullptr, 10);
        else {
            std::fprintf(stderr, "fir_kernels: unknown argument '%s'\n", k.c_str());
            return 2;
        }
    }
    if (taps == 0 || decimation == 0 || samples == 0 || (kind != "real" && kind != "complex")) {
        std::fprintf(stderr,
                     "usage: fir_kernels --kind real|complex --taps T --decimation D "
                     "--samples N (all above 0)\n");
        return 2;
    }
    return kind == "real" ? run<float>(taps, decimation, samples)
                          : run<gr_complex>(taps, decimation, samples);
}
