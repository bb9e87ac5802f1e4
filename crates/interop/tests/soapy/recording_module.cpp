// A SoapySDR module for tests (driver=radioflowtest): a device with two receive and two
// transmit channels that records every setting it is given, so that a test checks what
// radioflow's soapy blocks ask of SoapySDR through its real module interface. Built and
// loaded by the tests (tests/soapy/recording_module.rs); not installed anywhere.
//
// What it is told is kept in one log for the process, one line per call, read back with
// readSetting("log") on any device of this driver. Its receive stream gives, on channel c,
// sample k = (k, c) (as floats, exact below 2^24), each read timestamped (HAS_TIME) with the
// time of its first sample at the sample rate from the time set by setHardwareTime, and an
// overflow once where the setting overflow_after says (1000 samples lost); its transmit
// stream takes what it is given and logs how many samples per write, except that the first
// write at or after the sample the setting underflow_after says reports an underflow once
// (taking nothing; the write before it stops at that sample). With the setting vanish_after,
// both streams fail (SOAPY_SDR_STREAM_ERROR, as a driver whose device was unplugged) from that
// sample on.

#include <SoapySDR/Device.hpp>
#include <SoapySDR/Formats.hpp>
#include <SoapySDR/Registry.hpp>
#include <algorithm>
#include <complex>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace {

std::mutex log_mutex;
std::string log_text;

void note(const std::string &line)
{
    std::lock_guard<std::mutex> lock(log_mutex);
    log_text += line;
    log_text += "\n";
}

std::string dir_name(int direction)
{
    return direction == SOAPY_SDR_RX ? "rx" : "tx";
}

std::string number(double x)
{
    std::ostringstream out;
    out.precision(17);
    out << x;
    return out.str();
}

struct TestStream
{
    int direction;
    std::vector<size_t> channels;
    unsigned long long produced = 0;
    // A read at this sample reports an overflow once, 1000 samples lost (0: none).
    unsigned long long overflow_at = 0;
    // A write at or after this sample reports an underflow once, taking nothing (0: none).
    unsigned long long underflow_at = 0;
    // From this sample on, reads and writes fail: the device is gone (0: never).
    unsigned long long vanish_at = 0;
};

class RecordingDevice : public SoapySDR::Device
{
    double rate[2][2] = {{1e6, 1e6}, {1e6, 1e6}};
    double freq[2][2] = {};
    double gain[2][2] = {};
    long long time_ns = 0;
    unsigned long long overflow_after = 0;
    unsigned long long underflow_after = 0;
    unsigned long long vanish_after = 0;

public:
    explicit RecordingDevice(const SoapySDR::Kwargs &args)
    {
        std::string line = "make";
        // (SoapySDR adds the label its search gave.)
        for (const auto &kv : args)
            if (kv.first != "label") line += " " + kv.first + "=" + kv.second;
        note(line);
    }

    std::string getDriverKey(void) const override { return "radioflowtest"; }
    std::string getHardwareKey(void) const override { return "radioflowtest"; }
    size_t getNumChannels(const int) const override { return 2; }

    void setFrontendMapping(const int direction, const std::string &mapping) override
    {
        note("frontend_mapping " + dir_name(direction) + " " + mapping);
    }

    void setSampleRate(const int d, const size_t c, const double r) override
    {
        note("rate " + dir_name(d) + " " + std::to_string(c) + " " + number(r));
        rate[d][c] = r;
    }
    double getSampleRate(const int d, const size_t c) const override { return rate[d][c]; }

    // The overall frequency as asked (a device with a DSP stage takes the LO offset there).
    void setFrequency(const int d, const size_t c, const double f, const SoapySDR::Kwargs &args) override
    {
        std::string line = "freq " + dir_name(d) + " " + std::to_string(c) + " " + number(f);
        for (const auto &kv : args) line += " " + kv.first + "=" + kv.second;
        note(line);
        freq[d][c] = f;
    }
    double getFrequency(const int d, const size_t c) const override { return freq[d][c]; }
    SoapySDR::RangeList getFrequencyRange(const int, const size_t) const override
    {
        return SoapySDR::RangeList(1, SoapySDR::Range(0.0, 6e9));
    }

    std::vector<std::string> listGains(const int, const size_t) const override
    {
        return std::vector<std::string>(1, "PGA");
    }
    bool hasGainMode(const int, const size_t) const override { return true; }
    void setGainMode(const int d, const size_t c, const bool automatic) override
    {
        note("gain_mode " + dir_name(d) + " " + std::to_string(c) + (automatic ? " on" : " off"));
    }
    void setGain(const int d, const size_t c, const double g) override
    {
        note("gain " + dir_name(d) + " " + std::to_string(c) + " " + number(g));
        gain[d][c] = g;
    }
    void setGain(const int d, const size_t c, const std::string &name, const double g) override
    {
        note("gain " + dir_name(d) + " " + std::to_string(c) + " " + name + " " + number(g));
        gain[d][c] = g;
    }
    double getGain(const int d, const size_t c) const override { return gain[d][c]; }
    SoapySDR::Range getGainRange(const int, const size_t) const override
    {
        return SoapySDR::Range(0.0, 76.0);
    }

    std::vector<std::string> listAntennas(const int, const size_t) const override
    {
        return {"TX/RX", "RX2"};
    }
    void setAntenna(const int d, const size_t c, const std::string &name) override
    {
        note("antenna " + dir_name(d) + " " + std::to_string(c) + " " + name);
    }
    void setBandwidth(const int d, const size_t c, const double bw) override
    {
        note("bandwidth " + dir_name(d) + " " + std::to_string(c) + " " + number(bw));
    }

    bool hasDCOffsetMode(const int, const size_t) const override { return true; }
    void setDCOffsetMode(const int d, const size_t c, const bool automatic) override
    {
        note("dc_offset_mode " + dir_name(d) + " " + std::to_string(c) + (automatic ? " on" : " off"));
    }
    bool getDCOffsetMode(const int, const size_t) const override { return false; }
    bool hasDCOffset(const int, const size_t) const override { return true; }
    void setDCOffset(const int d, const size_t c, const std::complex<double> &v) override
    {
        note("dc_offset " + dir_name(d) + " " + std::to_string(c) + " " + number(v.real()) + " " + number(v.imag()));
    }
    bool hasIQBalance(const int, const size_t) const override { return true; }
    void setIQBalance(const int d, const size_t c, const std::complex<double> &v) override
    {
        note("iq_balance " + dir_name(d) + " " + std::to_string(c) + " " + number(v.real()) + " " + number(v.imag()));
    }

    void setClockSource(const std::string &source) override { note("clock_source " + source); }
    void setTimeSource(const std::string &source) override { note("time_source " + source); }
    bool hasHardwareTime(const std::string &) const override { return true; }
    long long getHardwareTime(const std::string &) const override { return time_ns; }
    // The times GRC's PC-clock options set vary: logged as "now" (none given) or by what.
    void setHardwareTime(const long long t, const std::string &what) override
    {
        note("hardware_time " + (what.empty() ? std::string("now") : what) +
             (what == "UNKNOWN_PPS" ? " " + std::to_string(t) : std::string()));
        time_ns = t;
    }

    // overflow_after=N: the next receive stream reports an overflow at sample N;
    // underflow_after=N: the next transmit stream reports an underflow at sample N;
    // vanish_after=N: the next streams fail from sample N on (the device unplugged).
    void writeSetting(const std::string &key, const std::string &value) override
    {
        note("setting " + key + "=" + value);
        if (key == "overflow_after") overflow_after = std::stoull(value);
        if (key == "underflow_after") underflow_after = std::stoull(value);
        if (key == "vanish_after") vanish_after = std::stoull(value);
    }
    std::string readSetting(const std::string &key) const override
    {
        if (key != "log") return "";
        std::lock_guard<std::mutex> lock(log_mutex);
        return log_text;
    }

    SoapySDR::Stream *setupStream(const int d, const std::string &format, const std::vector<size_t> &channels, const SoapySDR::Kwargs &) override
    {
        if (format != SOAPY_SDR_CF32) throw std::runtime_error("radioflowtest streams CF32 only");
        std::string line = "stream " + dir_name(d) + " " + format;
        for (size_t c : channels) line += " " + std::to_string(c);
        note(line);
        auto *s = new TestStream;
        s->direction = d;
        s->channels = channels.empty() ? std::vector<size_t>(1, 0) : channels;
        s->overflow_at = overflow_after;
        s->underflow_at = underflow_after;
        s->vanish_at = vanish_after;
        return reinterpret_cast<SoapySDR::Stream *>(s);
    }
    void closeStream(SoapySDR::Stream *stream) override
    {
        delete reinterpret_cast<TestStream *>(stream);
    }
    size_t getStreamMTU(SoapySDR::Stream *) const override { return 1024; }
    int activateStream(SoapySDR::Stream *stream, const int, const long long, const size_t) override
    {
        note("activate " + dir_name(reinterpret_cast<TestStream *>(stream)->direction));
        return 0;
    }
    int deactivateStream(SoapySDR::Stream *, const int, const long long) override { return 0; }

    int readStream(SoapySDR::Stream *stream, void *const *buffs, const size_t numElems, int &flags, long long &t, const long) override
    {
        auto *s = reinterpret_cast<TestStream *>(stream);
        size_t n = numElems;
        if (s->vanish_at != 0 && s->produced >= s->vanish_at) {
            flags = 0;
            return SOAPY_SDR_STREAM_ERROR;
        }
        if (s->vanish_at != 0) n = std::min<size_t>(n, s->vanish_at - s->produced);
        if (s->overflow_at != 0 && s->produced >= s->overflow_at)
        {
            s->overflow_at = 0;
            s->produced += 1000;
            flags = 0;
            return SOAPY_SDR_OVERFLOW;
        }
        if (s->overflow_at != 0 && s->produced + n > s->overflow_at) n = size_t(s->overflow_at - s->produced);
        for (size_t i = 0; i < s->channels.size(); i++)
        {
            auto *out = reinterpret_cast<std::complex<float> *>(buffs[i]);
            for (size_t k = 0; k < n; k++)
            {
                out[k] = std::complex<float>(float((s->produced + k) % (1u << 24)), float(s->channels[i]));
            }
        }
        const double r = rate[SOAPY_SDR_RX][s->channels[0]];
        t = time_ns + (long long)(double(s->produced) * 1e9 / r);
        flags = SOAPY_SDR_HAS_TIME;
        s->produced += n;
        return int(n);
    }

    int writeStream(SoapySDR::Stream *stream, const void *const *, const size_t n, int &flags, const long long, const long) override
    {
        auto *s = reinterpret_cast<TestStream *>(stream);
        flags = 0;
        size_t taken = n;
        if (s->vanish_at != 0) {
            if (s->produced >= s->vanish_at) return SOAPY_SDR_STREAM_ERROR;
            taken = std::min<size_t>(taken, s->vanish_at - s->produced);
        }
        if (s->underflow_at != 0) {
            if (s->produced >= s->underflow_at) {
                s->underflow_at = 0;
                note("underflow at " + std::to_string(s->produced));
                return SOAPY_SDR_UNDERFLOW;
            }
            // A write that crosses the sample takes what comes before it.
            taken = std::min<size_t>(taken, s->underflow_at - s->produced);
        }
        s->produced += taken;
        note("write " + std::to_string(taken));
        return int(taken);
    }
};

SoapySDR::KwargsList find_recording(const SoapySDR::Kwargs &args)
{
    SoapySDR::KwargsList found;
    auto driver = args.find("driver");
    if (driver != args.end() && driver->second != "radioflowtest") return found;
    SoapySDR::Kwargs device;
    device["driver"] = "radioflowtest";
    device["label"] = "radioflow's recording test device";
    found.push_back(device);
    return found;
}

SoapySDR::Device *make_recording(const SoapySDR::Kwargs &args)
{
    return new RecordingDevice(args);
}

SoapySDR::Registry register_recording("radioflowtest", &find_recording, &make_recording, SOAPY_SDR_ABI_VERSION);

} // namespace
