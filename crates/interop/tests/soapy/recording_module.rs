//! SoapySDR's module interface with a device that records what it is told: builds
//! `recording_module.cpp` (driver `radioflowtest`: two channels each way, every setting logged)
//! with the system's C++ compiler against libSoapySDR's headers, and loads it into the test's
//! process with SoapySDR's `loadModule`. Without a compiler or the headers the tests that need it
//! say SKIPPED.
#![allow(dead_code, unreachable_pub)] // each test crate uses its part

use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

// SAFETY: SoapySDR's C API (SoapySDR/Modules.h), linked by the soapysdr crate: takes a path as
// a C string and returns an error message (empty on success) that the caller frees.
unsafe extern "C" {
    fn SoapySDR_loadModule(path: *const c_char) -> *mut c_char;
}

/// The device arguments of the recording device.
pub const ARGS: &str = "driver=radioflowtest";

/// Builds and loads the module once per process: `Err` says why it cannot be.
fn loaded() -> &'static Result<(), String> {
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED.get_or_init(|| {
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../interop/tests/soapy/recording_module.cpp");
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("radioflowtest-{}.so", std::process::id()));
        let flags = Command::new("pkg-config")
            .args(["--cflags", "--libs", "SoapySDR"])
            .output()
            .map_err(|e| format!("pkg-config: {e}"))?;
        if !flags.status.success() {
            return Err("pkg-config finds no SoapySDR (libsoapysdr-dev)".into());
        }
        let flags = String::from_utf8_lossy(&flags.stdout).into_owned();
        let built = Command::new("c++")
            .args(["-std=c++14", "-shared", "-fPIC", "-O1", "-o"])
            .arg(&out)
            .arg(&source)
            .args(flags.split_whitespace())
            .output()
            .map_err(|e| format!("no C++ compiler (c++): {e}"))?;
        if !built.status.success() {
            return Err(format!(
                "building {}: {}",
                source.display(),
                String::from_utf8_lossy(&built.stderr)
            ));
        }
        let path = CString::new(out.to_string_lossy().as_bytes()).expect("a path without NUL");
        // SAFETY: a valid C string; the message returned is SoapySDR's (malloc'd), read and
        // left (one per process).
        let message = unsafe {
            let m = SoapySDR_loadModule(path.as_ptr());
            if m.is_null() {
                String::new()
            } else {
                CStr::from_ptr(m).to_string_lossy().into_owned()
            }
        };
        // Loaded (or not), the file is not needed any more: one per test process.
        let _ = std::fs::remove_file(&out);
        if message.is_empty() {
            Ok(())
        } else {
            Err(format!("SoapySDR cannot load {}: {message}", out.display()))
        }
    })
}

/// Whether the test `name` must be skipped: the module cannot be built or loaded (says why).
pub fn skip_without_recording_module(name: &str) -> bool {
    match loaded() {
        Ok(()) => false,
        Err(why) => {
            println!("SKIPPED {name}: {why}");
            true
        }
    }
}

/// Tests that read the log take turns (it is one for the process).
pub fn exclusive() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The `make` line of the device [`log`] reads the log with (the log's last line).
pub const READER: &str = "make driver=radioflowtest reader=log";

/// Every line the devices of this driver logged so far in this process, the last being
/// [`READER`].
pub fn log() -> Vec<String> {
    let device =
        soapysdr::Device::new("driver=radioflowtest,reader=log").expect("the recording device");
    device
        .read_setting("log")
        .expect("its log")
        .lines()
        .map(str::to_owned)
        .collect()
}
