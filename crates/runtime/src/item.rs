//! Stream items: any plain-old-data type can flow through a stream port.

/// A type that can be carried by stream ports: plain old data (`f32`, `Complex32`, `i16`, `i8`,
/// `u8`, or your own `#[derive(Pod, Zeroable)] #[repr(C)]` struct), shareable across threads.
pub trait Item: bytemuck::Pod + Send + Sync + 'static {}

impl<T: bytemuck::Pod + Send + Sync + 'static> Item for T {}
