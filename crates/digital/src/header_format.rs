//! [`HeaderFormat`]: GNU Radio's packet header formats (`header_format_default`, `_counter`,
//! `_crc`), and [`HeaderParser`], which finds their headers in a stream of bits.

use radioflow_dsp::Crc;
use radioflow_runtime::Pmt;
use std::fmt;
use std::str::FromStr;

/// GNU Radio's default access code (`digital.packet_utils.default_access_code`).
pub const DEFAULT_ACCESS_CODE: &str =
    "1010110011011101101001001110001011110010100011000010000011111100";

/// A packet header format as GNU Radio 3.10 builds and parses it:
/// - `default`: the access code, then the payload length in bytes (16 bits, most
///   significant first) twice. Parsed: `{"payload symbols": 8 · length / bps}`.
/// - `counter`: as `default`, then `bps` and a packet counter (16 bits each). Parsed:
///   `{"counter", "bps", "payload symbols"}` (bps from the header).
/// - `crc`: no access code; the length and a packet number (12 bits each, packed least
///   significant byte first into 24 bits) and a CRC-8 of them. Parsed: `{num_key: number,
///   len_key: 8 · length}`.
///
/// - `ofdm` (GNU Radio's `header_format_ofdm`): the `crc` header, padded with zeros to the
///   bits the header's OFDM symbols carry (`header_bits`: their occupied carriers, one bit
///   each), read back from bits most significant first. Parsed: `{len_key: 8 · length /
///   payload_bps, num_key: number, frame_key: the OFDM symbols the payload fills}`.
///
/// Its text form (a block parameter's value) is `default access_code=BITS threshold=N bps=N`,
/// `counter …` alike, `crc len_key=KEY num_key=KEY`, or `ofdm len_key=KEY frame_key=KEY
/// num_key=KEY header_bits=N carriers=N,N,... payload_bps=N`.
///
/// ```
/// use radioflow_digital::HeaderFormat;
/// let f: HeaderFormat = "default access_code=10101010 threshold=0 bps=1".parse()?;
/// assert_eq!(f.format(300, 0), [0xAA, 0x01, 0x2C, 0x01, 0x2C]);
/// # Ok::<(), radioflow_digital::HeaderFormatError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum HeaderFormat {
    /// Access code and the length twice (GNU Radio's `header_format_default`).
    Default(AccessCode),
    /// As `Default`, with bps and a counter (GNU Radio's `header_format_counter`).
    Counter(AccessCode),
    /// Length, number and CRC-8 (GNU Radio's `header_format_crc`).
    Crc {
        /// The parsed length's key.
        len_key: String,
        /// The parsed number's key.
        num_key: String,
    },
    /// The `crc` header padded to the header's OFDM symbols (GNU Radio's
    /// `header_format_ofdm`).
    Ofdm(OfdmHeader),
}

/// The parameters of the `ofdm` header format.
#[derive(Clone, Debug, PartialEq)]
pub struct OfdmHeader {
    /// The parsed length's key (payload symbols).
    pub len_key: String,
    /// The parsed frame length's key (payload OFDM symbols).
    pub frame_key: String,
    /// The parsed number's key.
    pub num_key: String,
    /// The header's bits (the occupied carriers of its OFDM symbols; at least 32).
    pub header_bits: usize,
    /// The occupied carriers of each OFDM symbol, in turn (none 0).
    pub carriers: Vec<usize>,
    /// Payload bits per carrier (1 or more).
    pub payload_bps: u32,
}

/// The access-code part of the `default` and `counter` formats.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessCode {
    /// The code's bits, first sent first (1 to 64).
    pub bits: Vec<u8>,
    /// Bits that may differ where the parser still sees the code.
    pub threshold: u32,
    /// Payload bits per symbol (1 or more).
    pub bps: u32,
}

/// A header format's parameters are wrong: which, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("header format: {0}")]
pub struct HeaderFormatError(String);

impl OfdmHeader {
    /// The `ofdm` format's parameters.
    ///
    /// # Errors
    /// If `header_bits` is below the 32 of the header, `carriers` is empty or has a 0, or
    /// `payload_bps` is 0.
    pub fn new(
        len_key: String,
        frame_key: String,
        num_key: String,
        header_bits: usize,
        carriers: Vec<usize>,
        payload_bps: u32,
    ) -> Result<Self, HeaderFormatError> {
        if header_bits < 32 {
            return Err(HeaderFormatError(format!(
                "the header's OFDM symbols carry {header_bits} bits: the header needs 32"
            )));
        }
        if carriers.is_empty() || carriers.contains(&0) {
            return Err(HeaderFormatError(
                "every OFDM symbol needs at least one occupied carrier".into(),
            ));
        }
        if payload_bps == 0 {
            return Err(HeaderFormatError("payload_bps must be at least 1".into()));
        }
        Ok(Self {
            len_key,
            frame_key,
            num_key,
            header_bits,
            carriers,
            payload_bps,
        })
    }

    /// The OFDM symbols `symbols` payload symbols fill (the occupied carriers in turn).
    fn frame_len(&self, symbols: u64) -> u64 {
        let (mut filled, mut n) = (0u64, 0usize);
        while filled < symbols {
            filled += self.carriers[n % self.carriers.len()] as u64;
            n += 1;
        }
        n as u64
    }
}

impl AccessCode {
    /// GNU Radio's parameters: `access_code` as characters whose low bit is the code's bit
    /// (GNU Radio reads `c & 1`: `'0'` and `'1'`).
    ///
    /// # Errors
    /// An empty code or one longer than 64 bits (GNU Radio: "Setting access code failed"),
    /// or `bps` below 1 (GNU Radio divides by it).
    pub fn new(access_code: &str, threshold: u32, bps: u32) -> Result<Self, HeaderFormatError> {
        let bits: Vec<u8> = access_code.bytes().map(|c| c & 1).collect();
        if bits.is_empty() || bits.len() > 64 {
            return Err(HeaderFormatError(format!(
                "access_code has {} bits; 1 to 64 are allowed",
                bits.len()
            )));
        }
        if bps == 0 {
            return Err(HeaderFormatError("bps must be at least 1".into()));
        }
        Ok(Self {
            bits,
            threshold,
            bps,
        })
    }

    fn value(&self) -> u64 {
        self.bits.iter().fold(0, |v, &b| (v << 1) | u64::from(b))
    }

    fn mask(&self) -> u64 {
        u64::MAX >> (64 - self.bits.len())
    }
}

/// Appends the low `bits / 8` bytes of `value`, most significant first (GNU Radio's
/// `header_buffer::add_field*` without byte swap).
fn put(out: &mut Vec<u8>, value: u64, bits: usize) {
    let n = bits / 8;
    out.extend((0..n).rev().map(|i| (value >> (8 * i)) as u8));
}

/// GNU Radio's CRC-8 of the `crc` format.
fn crc8() -> Crc {
    Crc::new(8, 0x07, 0xFF, 0x00, false, false).expect("8 bits")
}

/// The four bytes the `crc` format's CRC covers.
fn crc_bytes(len: u64, num: u64) -> [u8; 4] {
    [len as u8, (len >> 8) as u8, num as u8, (num >> 8) as u8]
}

impl HeaderFormat {
    /// The header's length in bits (GNU Radio's `header_nbits`).
    pub fn header_bits(&self) -> usize {
        match self {
            HeaderFormat::Default(a) => a.bits.len() + 32,
            HeaderFormat::Counter(a) => a.bits.len() + 64,
            HeaderFormat::Crc { .. } => 32,
            HeaderFormat::Ofdm(o) => o.header_bits,
        }
    }

    /// The header's length in whole bytes (GNU Radio's `header_nbytes`: bits that do not
    /// fill a byte are cut).
    pub fn header_bytes(&self) -> usize {
        self.header_bits() / 8
    }

    /// The header of a payload of `payload_len` bytes, the `counter`-th header made (used by
    /// the `counter` format, 16 bits, and the `crc` format, 12 bits), as GNU Radio's
    /// `format()` writes it.
    pub fn format(&self, payload_len: usize, counter: u64) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.header_bytes());
        // GNU Radio casts the length to uint16_t.
        let len = payload_len as u64 & 0xFFFF;
        match self {
            HeaderFormat::Default(a) | HeaderFormat::Counter(a) => {
                put(&mut out, a.value(), a.bits.len());
                put(&mut out, len, 16);
                put(&mut out, len, 16);
                if let HeaderFormat::Counter(_) = self {
                    put(&mut out, u64::from(a.bps) & 0xFFFF, 16);
                    put(&mut out, counter & 0xFFFF, 16);
                }
            }
            HeaderFormat::Crc { .. } | HeaderFormat::Ofdm(_) => {
                let (len, num) = (payload_len as u64 & 0x0FFF, counter & 0x0FFF);
                let crc = crc8().compute(&crc_bytes(len, num));
                let concat = (num << 12) | len;
                // 24 bits, least significant byte first (GNU Radio's byte swap), then the CRC.
                out.extend([concat as u8, (concat >> 8) as u8, (concat >> 16) as u8]);
                out.push(crc as u8);
                // GNU Radio's OFDM header fills its symbols' bits with zeros.
                out.resize(self.header_bytes().max(4), 0);
            }
        }
        out
    }

    /// A parser of this format's headers.
    pub fn parser(&self) -> HeaderParser {
        HeaderParser {
            format: self.clone(),
            crc: crc8(),
            data: 0,
            synced: matches!(self, HeaderFormat::Crc { .. } | HeaderFormat::Ofdm(_)),
            header: Vec::with_capacity(self.header_bits()),
        }
    }
}

impl fmt::Display for HeaderFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderFormat::Default(a) | HeaderFormat::Counter(a) => {
                let kind = if matches!(self, HeaderFormat::Default(_)) {
                    "default"
                } else {
                    "counter"
                };
                let code: String = a.bits.iter().map(|b| char::from(b'0' + b)).collect();
                write!(
                    f,
                    "{kind} access_code={code} threshold={} bps={}",
                    a.threshold, a.bps
                )
            }
            HeaderFormat::Crc { len_key, num_key } => {
                write!(f, "crc len_key={len_key} num_key={num_key}")
            }
            HeaderFormat::Ofdm(o) => {
                let carriers: Vec<String> = o.carriers.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "ofdm len_key={} frame_key={} num_key={} header_bits={} carriers={} payload_bps={}",
                    o.len_key,
                    o.frame_key,
                    o.num_key,
                    o.header_bits,
                    carriers.join(","),
                    o.payload_bps
                )
            }
        }
    }
}

impl FromStr for HeaderFormat {
    type Err = HeaderFormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let kind = words.next().unwrap_or("");
        let mut fields = std::collections::HashMap::new();
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                return Err(HeaderFormatError(format!("'{w}' is not key=value")));
            };
            fields.insert(k, v);
        }
        let allowed: &[&str] = match kind {
            "default" | "counter" => &["access_code", "threshold", "bps"],
            "crc" => &["len_key", "num_key"],
            "ofdm" => &[
                "len_key",
                "frame_key",
                "num_key",
                "header_bits",
                "carriers",
                "payload_bps",
            ],
            _ => {
                return Err(HeaderFormatError(format!(
                    "'{kind}' is not a header format (default, counter, crc or ofdm)"
                )))
            }
        };
        if let Some(k) = fields.keys().find(|k| !allowed.contains(k)) {
            return Err(HeaderFormatError(format!(
                "{kind} has no '{k}' (it has {})",
                allowed.join(", ")
            )));
        }
        let number = |key: &str, default: u32| -> Result<u32, HeaderFormatError> {
            fields.get(key).map_or(Ok(default), |v| {
                v.parse()
                    .map_err(|_| HeaderFormatError(format!("{key}={v} is not a whole number >= 0")))
            })
        };
        let key = |k: &str, default: &str| fields.get(k).unwrap_or(&default).to_string();
        match kind {
            "ofdm" => {
                let carriers = fields
                    .get("carriers")
                    .copied()
                    .unwrap_or("")
                    .split(',')
                    .map(|c| c.parse::<usize>().ok().filter(|&c| c > 0))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        HeaderFormatError(
                            "carriers= needs the occupied carriers of each OFDM symbol, \
                             numbers above 0 joined by commas"
                                .into(),
                        )
                    })?;
                OfdmHeader::new(
                    key("len_key", "packet_len"),
                    key("frame_key", "frame_len"),
                    key("num_key", "packet_num"),
                    number("header_bits", 0)? as usize,
                    carriers,
                    number("payload_bps", 1)?,
                )
                .map(HeaderFormat::Ofdm)
            }
            "crc" => Ok(HeaderFormat::Crc {
                len_key: fields.get("len_key").unwrap_or(&"packet_len").to_string(),
                num_key: fields.get("num_key").unwrap_or(&"packet_num").to_string(),
            }),
            _ => {
                let code = fields
                    .get("access_code")
                    .copied()
                    .unwrap_or(DEFAULT_ACCESS_CODE);
                let a = AccessCode::new(code, number("threshold", 0)?, number("bps", 1)?)?;
                Ok(if kind == "default" {
                    HeaderFormat::Default(a)
                } else {
                    HeaderFormat::Counter(a)
                })
            }
        }
    }
}

/// Finds headers of a [`HeaderFormat`] in a stream of bits, one bit per byte (GNU Radio's
/// `parse()`): for `default` and `counter`, the access code (at most `threshold` bits
/// wrong, each byte's low bit), then the header's bits (any byte not 0 is a 1, as GNU
/// Radio's `insert_bit` takes it); for `crc`, every 32 bits is a header.
#[derive(Clone, Debug)]
pub struct HeaderParser {
    format: HeaderFormat,
    crc: Crc,
    /// The last 64 bits seen while searching for the access code.
    data: u64,
    /// The access code was seen: the header's bits are gathering.
    synced: bool,
    header: Vec<u8>,
}

/// What one bit completed.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// A header, as GNU Radio's info dict.
    Header(Pmt),
    /// A header whose checks failed (GNU Radio posts `#f`).
    Bad,
}

impl HeaderParser {
    /// Takes the next bit; a header (or a bad one) where it completes one.
    pub fn push(&mut self, bit: u8) -> Option<Parsed> {
        let (code, after_code) = match &self.format {
            HeaderFormat::Default(a) | HeaderFormat::Counter(a) => {
                (Some(a), self.format.header_bits() - a.bits.len())
            }
            HeaderFormat::Crc { .. } => (None, 32),
            HeaderFormat::Ofdm(o) => (None, o.header_bits),
        };
        if !self.synced {
            let a = code.expect("crc is always synced");
            self.data = (self.data << 1) | u64::from(bit & 1);
            if ((self.data ^ a.value()) & a.mask()).count_ones() <= a.threshold {
                self.synced = true;
                self.header.clear();
            }
            return None;
        }
        self.header.push(u8::from(bit != 0));
        if self.header.len() < after_code {
            return None;
        }
        let parsed = self.header_info();
        self.header.clear();
        // The default formats search again; crc takes the next 32 bits.
        self.synced = code.is_none();
        Some(parsed)
    }

    /// The header's field of `len` bits at `pos`, first bit most significant (or least with
    /// `lsb_first`).
    fn field(&self, pos: usize, len: usize, lsb_first: bool) -> u64 {
        let bits = &self.header[pos..pos + len];
        let fold = |v: u64, &b: &u8| (v << 1) | u64::from(b);
        if lsb_first {
            bits.iter().rev().fold(0, fold)
        } else {
            bits.iter().fold(0, fold)
        }
    }

    fn header_info(&self) -> Parsed {
        let mut info = Pmt::Null;
        match &self.format {
            HeaderFormat::Default(a) => {
                let len = self.field(0, 16, false);
                if len != self.field(16, 16, false) {
                    return Parsed::Bad;
                }
                info.dict_add(
                    Pmt::symbol("payload symbols"),
                    Pmt::Int((8 * len / u64::from(a.bps)) as i64),
                );
            }
            HeaderFormat::Counter(_) => {
                let len = self.field(0, 16, false);
                let bps = self.field(32, 16, false);
                // GNU Radio divides by the bps received: 0 would crash it.
                if len != self.field(16, 16, false) || bps == 0 {
                    return Parsed::Bad;
                }
                let counter = self.field(48, 16, false);
                info.dict_add(
                    Pmt::symbol("payload symbols"),
                    Pmt::Int((8 * len / bps) as i64),
                );
                info.dict_add(Pmt::symbol("bps"), Pmt::Int(bps as i64));
                info.dict_add(Pmt::symbol("counter"), Pmt::Int(counter as i64));
            }
            HeaderFormat::Crc { len_key, num_key } => {
                let len = self.field(0, 12, true);
                let num = self.field(12, 12, true);
                let crc = self.field(24, 8, true);
                if self.crc.compute(&crc_bytes(len, num)) != crc {
                    return Parsed::Bad;
                }
                info.dict_add(Pmt::symbol(len_key.as_str()), Pmt::Int((8 * len) as i64));
                info.dict_add(Pmt::symbol(num_key.as_str()), Pmt::Int(num as i64));
            }
            HeaderFormat::Ofdm(o) => {
                // GNU Radio packs the bits into bytes, most significant first, and reads
                // the crc format's bytes from them.
                let byte = |i: usize| self.field(8 * i, 8, false);
                let (b0, b1, b2, crc) = (byte(0), byte(1), byte(2), byte(3));
                let len = b0 | (b1 & 0x0F) << 8;
                let num = b1 >> 4 | b2 << 4;
                if self.crc.compute(&crc_bytes(len, num)) != crc {
                    return Parsed::Bad;
                }
                let symbols = 8 * len / u64::from(o.payload_bps);
                info.dict_add(Pmt::symbol(o.len_key.as_str()), Pmt::Int(symbols as i64));
                info.dict_add(Pmt::symbol(o.num_key.as_str()), Pmt::Int(num as i64));
                info.dict_add(
                    Pmt::symbol(o.frame_key.as_str()),
                    Pmt::Int(o.frame_len(symbols) as i64),
                );
            }
        }
        Parsed::Header(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header's bytes as bits, most significant first (or least, for the crc format).
    fn bits(bytes: &[u8], lsb_first: bool) -> Vec<u8> {
        bytes
            .iter()
            .flat_map(|b| {
                (0..8).map(move |k| {
                    if lsb_first {
                        (b >> k) & 1
                    } else {
                        (b >> (7 - k)) & 1
                    }
                })
            })
            .collect()
    }

    fn parse_all(f: &HeaderFormat, bits: &[u8]) -> Vec<Parsed> {
        let mut p = f.parser();
        bits.iter().filter_map(|&b| p.push(b)).collect()
    }

    #[test]
    fn text_form_round_trips_and_names_what_is_wrong() {
        for s in [
            "default access_code=1011 threshold=2 bps=4",
            "counter access_code=10101010111101010101 threshold=3 bps=1",
            "crc len_key=packet_len num_key=packet_num",
        ] {
            assert_eq!(s.parse::<HeaderFormat>().unwrap().to_string(), s);
        }
        let e = |s: &str| s.parse::<HeaderFormat>().unwrap_err().to_string();
        assert!(e("fancy").contains("'fancy'"));
        assert!(e("default bps=0").contains("bps"));
        assert!(e(&format!("default access_code={}", "1".repeat(65))).contains("65 bits"));
        assert!(e("crc access_code=1").contains("'access_code'"));
    }

    #[test]
    fn headers_made_are_found_with_their_info() {
        let f: HeaderFormat = "counter access_code=1011001110 threshold=1 bps=2"
            .parse()
            .unwrap();
        // Ten bits of code: a 74-bit header, cut to 9 bytes (GNU Radio's header_nbytes).
        assert_eq!(f.format(300, 7), [0xCE, 0x01, 0x2C, 0x01, 0x2C, 0, 2, 0, 7]);
        let mut want = Pmt::Null;
        want.dict_add(Pmt::symbol("payload symbols"), Pmt::Int(1200));
        want.dict_add(Pmt::symbol("bps"), Pmt::Int(2));
        want.dict_add(Pmt::symbol("counter"), Pmt::Int(7));
        let code = [1u8, 0, 1, 1, 0, 0, 1, 1, 1, 0];
        let mut stream = vec![0u8, 1];
        stream.extend(code);
        stream.extend(bits(&[0x01, 0x2C, 0x01, 0x2C, 0, 2, 0, 7], false));
        assert_eq!(parse_all(&f, &stream), [Parsed::Header(want)]);
        // Lengths that differ: a bad header.
        let mut bad = code.to_vec();
        bad.extend(bits(&[0x01, 0x2C, 0x01, 0x2D, 0, 2, 0, 7], false));
        assert_eq!(parse_all(&f, &bad), [Parsed::Bad]);

        let crc: HeaderFormat = "crc len_key=l num_key=n".parse().unwrap();
        assert_eq!(crc.format(300, 1), [0x2C, 0x11, 0x00, 137]);
        let mut stream = bits(&crc.format(300, 1), true);
        stream.extend(bits(&[0x2C, 0x11, 0x00, 138], true));
        let mut want = Pmt::Null;
        want.dict_add(Pmt::symbol("l"), Pmt::Int(2400));
        want.dict_add(Pmt::symbol("n"), Pmt::Int(1));
        assert_eq!(
            parse_all(&crc, &stream),
            [Parsed::Header(want), Parsed::Bad]
        );
    }

    #[test]
    fn ofdm_headers_are_gnu_radio_s() {
        // GNU Radio 3.10: header_format_ofdm(occupied_carriers of 48, 1, "packet_len",
        // "frame_len", "packet_num", 1, 2, False) makes these for 96 bytes, packets 0 and 1,
        // and parses {frame_len: 9, packet_num: n, packet_len: 400} from those of 100 bytes.
        let f: HeaderFormat = "ofdm len_key=packet_len frame_key=frame_len num_key=packet_num \
                               header_bits=48 carriers=48 payload_bps=2"
            .parse()
            .unwrap();
        assert_eq!(f.to_string().parse::<HeaderFormat>().unwrap(), f);
        assert_eq!(f.format(96, 0), [96, 0, 0, 132, 0, 0]);
        assert_eq!(f.format(96, 1), [96, 16, 0, 145, 0, 0]);
        let mut stream = Vec::new();
        for n in 0..3 {
            stream.extend(bits(&f.format(100, n), false));
        }
        let found = parse_all(&f, &stream);
        assert_eq!(found.len(), 3);
        for (n, p) in found.iter().enumerate() {
            let Parsed::Header(info) = p else {
                panic!("{p:?}")
            };
            let get = |k: &str| info.dict_get(k).and_then(Pmt::as_i64);
            assert_eq!(
                (get("packet_len"), get("packet_num"), get("frame_len")),
                (Some(400), Some(n as i64), Some(9))
            );
        }
        stream[5] ^= 1;
        assert_eq!(parse_all(&f, &stream[..48]), [Parsed::Bad]);
        assert!("ofdm header_bits=16 carriers=4"
            .parse::<HeaderFormat>()
            .is_err());
        assert!("ofdm header_bits=48 carriers=4,0"
            .parse::<HeaderFormat>()
            .is_err());
    }
}
