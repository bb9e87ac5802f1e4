//! A Red Pitaya SDR transceiver emulated on loopback: the device SoapySDR's `redpitaya`
//! module (Debian: `soapysdr0.8-module-redpitaya`) talks to, so that the SoapySDR blocks run
//! through a real SoapySDR module, its stream and its settings, without radio hardware.
//! Shared by radioflow-blocks' `soapysdr` test and the CLI's `fm_device` test (std and libc).
//!
//! The protocol, as the module speaks it (learned from SoapyRedPitaya.cpp): for each
//! direction it opens two TCP connections to `addr:port` when the stream is activated, and
//! sends on each a `u32` (native order, as all words here) saying what it is: 0 receive
//! control, 1 receive data, 2 transmit control, 3 transmit data. A control connection then
//! carries `u32` commands: a frequency in Hz, or `1 << 28 | code` for a sample rate (codes 0
//! to 5: 20, 50, 100, 250, 500 and 1250 kHz; another rate sends code 0). On the receive data
//! connection the device sends CF32 samples (`[f32; 2]`, native order) for as long as it is
//! open; on the transmit data connection the module sends them.
//!
//! Like the device, this one streams at its sample rate, without end (a test takes what it
//! needs and closes the stream), in TCP segments of at most 1448 bytes (181 samples), as on the
//! device's Ethernet (loopback's would be up to 64 KiB). The module returns samples only once a whole read is queued
//! in its socket, and Linux frees a received buffer only once it is read to its end: when the
//! graph falls behind, the socket's receive buffer fills with partly read buffers (seen with
//! `ss -tm`: 111 KiB charged for 6 KiB unread), less than a read stays queued, and only
//! smaller reads get the stream going again (`SoapySource` halves its reads after a timeout).
#![allow(dead_code, unreachable_pub)] // each test crate uses its part

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the module told the device, and what it was sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    /// Commands on the receive control connection, in order.
    pub rx_commands: Vec<u32>,
    /// Commands on the transmit control connection, in order.
    pub tx_commands: Vec<u32>,
    /// Samples received on the transmit data connection, in order.
    pub tx_samples: Vec<[f32; 2]>,
    /// The transmit data connection was closed by the module.
    pub tx_closed: bool,
    /// Receive data connections opened (one per stream activation).
    pub rx_streams: usize,
}

/// The sample rate command for `code` (see the module's list).
pub const fn rate_command(code: u32) -> u32 {
    1 << 28 | code
}

struct Shared {
    log: Mutex<Log>,
    changed: Condvar,
}

impl Shared {
    fn update(&self, f: impl FnOnce(&mut Log)) {
        f(&mut self.log.lock().unwrap());
        self.changed.notify_all();
    }
}

/// The emulated device: listens on a loopback port until dropped.
pub struct RedPitaya {
    port: u16,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
    closing: Arc<std::sync::atomic::AtomicBool>,
}

/// Whether SoapySDR's `redpitaya` module is installed where SoapySDR looks for modules
/// (`<libdir>/SoapySDR/modules<ABI>/libRedPitaya.so`, or a directory of
/// `SOAPY_SDR_PLUGIN_PATH`).
pub fn module_installed() -> bool {
    let mut roots: Vec<std::path::PathBuf> = ["/usr/lib", "/usr/local/lib", "/usr/lib64"]
        .iter()
        .map(Into::into)
        .collect();
    if let Ok(dirs) = std::fs::read_dir("/usr/lib") {
        // Debian's multiarch directories (/usr/lib/x86_64-linux-gnu).
        roots.extend(dirs.flatten().map(|d| d.path()).filter(|p| p.is_dir()));
    }
    let in_modules_of = |root: &Path| {
        std::fs::read_dir(root.join("SoapySDR")).is_ok_and(|dirs| {
            dirs.flatten()
                .any(|d| d.path().join("libRedPitaya.so").is_file())
        })
    };
    let plugin_path = std::env::var_os("SOAPY_SDR_PLUGIN_PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("libRedPitaya.so").is_file()));
    plugin_path || roots.iter().any(|r| in_modules_of(r))
}

/// Says a test is skipped because the module is missing; `true` if so.
pub fn skip_without_module(test: &str) -> bool {
    if module_installed() {
        return false;
    }
    println!(
        "SKIPPED {test}: SoapySDR's redpitaya module is not installed \
         (apt-get install soapysdr0.8-module-redpitaya; scripts/system-deps.sh does)"
    );
    eprintln!("SKIPPED {test}: no SoapySDR redpitaya module");
    true
}

impl RedPitaya {
    /// A device on a free loopback port whose receive stream is sample `k` = `rx(k)`, from
    /// `k = 0` on each activation, at `rate` samples/s, for as long as the module reads.
    pub fn start(rate: f64, rx: impl Fn(u64) -> [f32; 2] + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        // 1448 bytes of data per segment once the 12 bytes of TCP timestamps (on by default in
        // Linux) are taken out.
        cap_segments(&listener, 1460);
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            log: Mutex::new(Log::default()),
            changed: Condvar::new(),
        });
        let closing = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let rx = Arc::new(rx);
        let accept = {
            let (shared, closing) = (shared.clone(), closing.clone());
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    if closing.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let (shared, rx) = (shared.clone(), rx.clone());
                    std::thread::spawn(move || serve(conn, &shared, rate, &*rx));
                }
            })
        };
        Self {
            port,
            shared,
            accept: Some(accept),
            closing,
        }
    }

    /// SoapySDR's device arguments for this device.
    pub fn args(&self) -> String {
        format!("driver=redpitaya,addr=127.0.0.1,port={}", self.port)
    }

    /// The log as it is now.
    pub fn log(&self) -> Log {
        self.shared.log.lock().unwrap().clone()
    }

    /// Waits until `done` holds for the log (or `timeout` passes), and returns it.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&Log) -> bool) -> Log {
        let deadline = Instant::now() + timeout;
        let mut log = self.shared.log.lock().unwrap();
        while !done(&log) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            log = self.shared.changed.wait_timeout(log, left).unwrap().0;
        }
        log.clone()
    }
}

impl Drop for RedPitaya {
    fn drop(&mut self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        // Wakes the accepting thread up so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// Caps the TCP segments of the connections `listener` accepts at `bytes` with their options
/// (`TCP_MAXSEG`, inherited by accepted sockets; see the file's comment for why).
fn cap_segments(listener: &TcpListener, bytes: libc::c_int) {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor is the listener's own, open for the call; the option value is a
    // c_int that lives across the call, and its size is passed with it.
    let r = unsafe {
        libc::setsockopt(
            listener.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_MAXSEG,
            (&raw const bytes).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    assert_eq!(
        r,
        0,
        "setsockopt(TCP_MAXSEG): {}",
        std::io::Error::last_os_error()
    );
}

fn read_word(conn: &mut TcpStream) -> Option<u32> {
    let mut w = [0u8; 4];
    conn.read_exact(&mut w).ok()?;
    Some(u32::from_ne_bytes(w))
}

/// One connection of the module, by the kind its first word names.
fn serve(mut conn: TcpStream, shared: &Shared, rate: f64, rx: &dyn Fn(u64) -> [f32; 2]) {
    let Some(kind) = read_word(&mut conn) else {
        return;
    };
    match kind {
        0 | 2 => {
            while let Some(command) = read_word(&mut conn) {
                shared.update(|log| {
                    if kind == 0 {
                        log.rx_commands.push(command);
                    } else {
                        log.tx_commands.push(command);
                    }
                });
            }
        }
        1 => {
            shared.update(|log| log.rx_streams += 1);
            // At the rate, in writes of 128 samples (1 KiB) sent at once (no Nagle delay),
            // until the module closes the connection (a write fails).
            const CHUNK: u64 = 128;
            if conn.set_nodelay(true).is_err() {
                return;
            }
            let start = Instant::now();
            let mut bytes = Vec::with_capacity(CHUNK as usize * 8);
            let mut k = 0u64;
            loop {
                let due = (start.elapsed().as_secs_f64() * rate) as u64;
                if k + CHUNK > due {
                    std::thread::sleep(Duration::from_micros(500));
                    continue;
                }
                bytes.clear();
                for _ in 0..CHUNK {
                    let [re, im] = rx(k);
                    bytes.extend_from_slice(&re.to_ne_bytes());
                    bytes.extend_from_slice(&im.to_ne_bytes());
                    k += 1;
                }
                if conn.write_all(&bytes).is_err() {
                    break;
                }
            }
        }
        3 => {
            let mut buf = vec![0u8; 1 << 16];
            let mut partial = Vec::new();
            loop {
                match conn.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        partial.extend_from_slice(&buf[..n]);
                        let whole = partial.len() / 8 * 8;
                        let samples: Vec<[f32; 2]> = partial[..whole]
                            .chunks_exact(8)
                            .map(|c| {
                                [
                                    f32::from_ne_bytes(c[..4].try_into().unwrap()),
                                    f32::from_ne_bytes(c[4..].try_into().unwrap()),
                                ]
                            })
                            .collect();
                        partial.drain(..whole);
                        shared.update(|log| log.tx_samples.extend(samples));
                    }
                }
            }
            shared.update(|log| log.tx_closed = true);
        }
        _ => {}
    }
}
