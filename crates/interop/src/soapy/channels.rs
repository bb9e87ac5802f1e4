//! [`Channels`]: the device channels one block streams, each with its settings, set up and
//! changed together.

use super::command::Command;
use super::device::{DeviceConfig, DeviceError};
use soapysdr::Device;

/// The most channels one block streams.
pub(crate) const MAX_CHANNELS: usize = 4;

/// A block's device channels (consecutive, from the first): each one's [`DeviceConfig`].
/// The block's own settings go to every channel; a command naming a channel (`chan`) goes to
/// that one; what is the device's rather than a channel's is carried out by the first.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Channels(Vec<DeviceConfig>);

impl Channels {
    pub(crate) fn new(config: DeviceConfig) -> Self {
        Self(vec![config])
    }

    /// The first channel's settings (the block's errors name its device through them).
    pub(crate) fn first(&self) -> &DeviceConfig {
        &self.0[0]
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Each channel's settings, in stream order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &DeviceConfig> {
        self.0.iter()
    }

    /// The device channel numbers, in stream order.
    pub(crate) fn numbers(&self) -> Vec<usize> {
        self.0.iter().map(|c| c.channel).collect()
    }

    /// `n` channels from `first` on, each with the first's settings (1 to [`MAX_CHANNELS`];
    /// another count is refused when the block is checked).
    pub(crate) fn set(&mut self, first: usize, n: usize) {
        let mut template = self.0[0].clone();
        if !(1..=MAX_CHANNELS).contains(&n) {
            template.refused.push(format!(
                "nchan must be 1 to {MAX_CHANNELS} (radioflow's soapy blocks stream up to \
                 {MAX_CHANNELS} channels), not {n}"
            ));
        }
        let n = n.clamp(1, MAX_CHANNELS);
        self.0 = (0..n)
            .map(|i| {
                let mut c = template.clone();
                c.channel = first + i;
                c.channels = first..first + n;
                c
            })
            .collect();
    }

    /// Changes every channel's settings.
    pub(crate) fn each(&mut self, f: impl Fn(&mut DeviceConfig)) {
        self.0.iter_mut().for_each(f);
    }

    /// Start commands for every channel (each takes those for it).
    pub(crate) fn at_start(&mut self, commands: &[radioflow_runtime::Pmt]) {
        for c in &mut self.0 {
            c.at_start(commands);
        }
    }

    /// Checks every channel's settings that need no device.
    pub(crate) fn checked(&self) -> Result<(), radioflow_runtime::registry::Refused> {
        self.0.iter().try_for_each(DeviceConfig::checked)
    }

    /// Opens the device and sets every channel up.
    pub(crate) fn open(&self) -> Result<Device, DeviceError> {
        let device = self.0[0].open_device()?;
        for c in &self.0 {
            c.set_up(&device)?;
        }
        Ok(device)
    }

    /// `command` on every channel; whether one carried it out (an error is logged).
    pub(crate) fn applied(&mut self, device: Option<&Device>, command: &Command) -> bool {
        let mut any = false;
        for c in &mut self.0 {
            any |= c.applied(device, command.clone());
        }
        any
    }

    /// GNU Radio's `cmd` message, each channel taking what is for it; whether a frequency or
    /// rate changed.
    pub(crate) fn on_message(
        &mut self,
        device: Option<&Device>,
        msg: &radioflow_runtime::Pmt,
    ) -> bool {
        let mut changed = false;
        for c in &mut self.0 {
            let before = (c.frequency, c.sample_rate);
            c.on_message(device, msg);
            changed |= before != (c.frequency, c.sample_rate);
        }
        changed
    }
}
