//! Radios through SoapySDR: a receiving and a transmitting block over one device set-up.

mod channels;
mod command;
mod device;
mod probe;
mod sink;
mod source;

pub use device::{DeviceError, NO_DEVICE};
pub use probe::{find_devices, ChannelInfo, FoundDevice, ProbeError};
pub use sink::SoapySink;
pub use source::SoapySource;
