//! [`Constellation`]: GNU Radio 3.10's constellation objects (`digital.constellation_*`), their
//! hard decisions (nearest point, rectangular sectors, the fixed slicers of the named kinds)
//! and soft decisions (computed, or read from a table made once).

use num_complex::Complex32;
use std::fmt;
use std::str::FromStr;

/// How the points given to a custom constellation are scaled (GNU Radio's
/// `digital.constellation.*_NORMALIZATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalization {
    /// As given.
    None,
    /// Mean power 1.
    Power,
    /// Mean magnitude 1 (GNU Radio's default).
    Amplitude,
}

impl Normalization {
    fn word(self) -> &'static str {
        match self {
            Normalization::None => "none",
            Normalization::Power => "power",
            Normalization::Amplitude => "amplitude",
        }
    }
}

impl FromStr for Normalization {
    type Err = ConstellationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "none" => Normalization::None,
            "power" => Normalization::Power,
            "amplitude" => Normalization::Amplitude,
            _ => {
                return Err(bad(format!(
                    "normalization '{s}' is not none, power or amplitude"
                )))
            }
        })
    }
}

/// Why a constellation could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("constellation: {0}")]
pub struct ConstellationError(String);

fn bad(message: impl Into<String>) -> ConstellationError {
    ConstellationError(message.into())
}

/// The kinds GNU Radio 3.10 makes, each with its decision maker.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    /// `constellation_calcdist`: the nearest point over `dimensionality` samples.
    Calcdist,
    /// `constellation_rect`: the point nearest the centre of the sample's sector.
    Rect(Rect),
    /// `constellation_bpsk`.
    Bpsk,
    /// `constellation_qpsk` (Gray-coded).
    Qpsk,
    /// `constellation_dqpsk` (not Gray-coded, for differential coding).
    Dqpsk,
    /// `constellation_8psk` (Gray-coded).
    Psk8,
    /// `constellation_16qam` (set-partition mapping).
    Qam16,
}

/// The sectors of a rectangular constellation.
#[derive(Clone, Debug, PartialEq)]
struct Rect {
    real_sectors: u32,
    imag_sectors: u32,
    /// The widths as given (the text form) and as scaled with the points.
    given_widths: (f32, f32),
    widths: (f32, f32),
    /// The point each sector decides for.
    sector_values: Vec<u32>,
}

/// A soft-decision table made by [`Constellation::with_soft_lut`]: `2^precision` rows of as
/// many columns, each entry `bits` log-likelihood ratios.
#[derive(Clone, Debug, PartialEq)]
struct SoftLut {
    precision: u32,
    scale: f32,
    bits: usize,
    table: Vec<f32>,
}

/// A constellation as GNU Radio 3.10 defines it: points (normalized), a symbol code (GNU
/// Radio's `pre_diff_code`, the bits each point carries in soft decisions), a rotational
/// symmetry, a dimensionality (points per symbol), a hard decision maker and a soft one.
///
/// It reads and writes a one-line text form, the value a block parameter takes
/// ([`Display`](fmt::Display) and [`FromStr`]): `qpsk`, `bpsk`, `dqpsk`, `8psk`, `16qam`, or
/// `calcdist points=RE,IM;RE,IM;… map=0,1,… rot=4 dim=1 norm=amplitude`, or `rect points=…
/// map=… rot=4 sectors=2,2 widths=1,1 norm=amplitude`; ` lut=P` adds a soft-decision table of
/// precision `P` (GNU Radio's `gen_soft_dec_lut(P)`). The points are those given, before
/// normalization.
///
/// ```
/// use num_complex::Complex32;
/// use radioflow_digital::Constellation;
///
/// let qpsk: Constellation = "qpsk".parse()?;
/// assert_eq!(qpsk.decision(&[Complex32::new(0.3, -0.9)]), 1);
/// let custom = Constellation::calcdist(
///     &[Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)], &[0, 1], 2, 1,
///     radioflow_digital::Normalization::Amplitude)?;
/// assert_eq!(custom.to_string().parse::<Constellation>()?, custom);
/// # Ok::<(), radioflow_digital::ConstellationError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Constellation {
    kind: Kind,
    /// The points as given (custom kinds), for the text form.
    given: Vec<Complex32>,
    points: Vec<Complex32>,
    pre_diff_code: Vec<u32>,
    apply_pre_diff_code: bool,
    rotational_symmetry: u32,
    dimensionality: usize,
    normalization: Normalization,
    scalefactor: f32,
    lut: Option<SoftLut>,
}

/// The most point distances a constellation's tables (sectors, soft decisions) are made of:
/// 2^26, a second or so, so that a file cannot ask for hours (a 16QAM table of precision 10
/// is 2^24).
const MAX_WORK: u64 = 1 << 26;

/// GNU Radio's `GR_M_SQRT2`: its QPSK points are (±√2, ±√2), mean magnitude 2.
const SQRT2: f32 = std::f32::consts::SQRT_2;

impl Constellation {
    fn named(kind: Kind, points: Vec<Complex32>, code: &[u32], apply: bool, rot: u32) -> Self {
        Self {
            kind,
            given: Vec::new(),
            points,
            pre_diff_code: code.to_vec(),
            apply_pre_diff_code: apply,
            rotational_symmetry: rot,
            dimensionality: 1,
            normalization: Normalization::None,
            scalefactor: 1.0,
            lut: None,
        }
    }

    /// GNU Radio's `constellation_bpsk()`: -1 and 1.
    pub fn bpsk() -> Self {
        let p = vec![Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)];
        Self::named(Kind::Bpsk, p, &[], false, 2)
    }

    /// GNU Radio's `constellation_qpsk()`: Gray-coded, the real part the low bit, at
    /// (±√2, ±√2) (not normalized).
    pub fn qpsk() -> Self {
        let s = SQRT2;
        let p = vec![
            Complex32::new(-s, -s),
            Complex32::new(s, -s),
            Complex32::new(-s, s),
            Complex32::new(s, s),
        ];
        // GNU Radio sets this code without applying it.
        Self::named(Kind::Qpsk, p, &[0, 2, 3, 1], false, 4)
    }

    /// GNU Radio's `constellation_dqpsk()`: counter-clockwise from 45°, Gray code applied.
    pub fn dqpsk() -> Self {
        let s = SQRT2;
        let p = vec![
            Complex32::new(s, s),
            Complex32::new(-s, s),
            Complex32::new(-s, -s),
            Complex32::new(s, -s),
        ];
        Self::named(Kind::Dqpsk, p, &[0, 1, 3, 2], true, 4)
    }

    /// GNU Radio's `constellation_8psk()`: Gray-coded, at odd multiples of π/8.
    pub fn psk8() -> Self {
        // In f32 as GNU Radio computes them (cosf of the f32 angle).
        let angle = (std::f64::consts::PI / 8.0) as f32;
        let p = [1.0f32, 7.0, 15.0, 9.0, 3.0, 5.0, 13.0, 11.0]
            .iter()
            .map(|&k| Complex32::new((k * angle).cos(), (k * angle).sin()))
            .collect();
        Self::named(Kind::Psk8, p, &[], false, 8)
    }

    /// GNU Radio's `constellation_16qam()`: the set-partition mapping, mean power 1.
    pub fn qam16() -> Self {
        let l = 0.1f32.sqrt();
        let grid: [(f32, f32); 16] = [
            (1., -1.),
            (-1., -1.),
            (3., -3.),
            (-3., -3.),
            (-3., -1.),
            (3., -1.),
            (-1., -3.),
            (1., -3.),
            (-3., 3.),
            (3., 3.),
            (-1., 1.),
            (1., 1.),
            (1., 3.),
            (-1., 3.),
            (3., 1.),
            (-3., 1.),
        ];
        let p = grid
            .iter()
            .map(|&(re, im)| Complex32::new(re * l, im * l))
            .collect();
        Self::named(Kind::Qam16, p, &[], false, 4)
    }

    /// GNU Radio's `constellation_calcdist(points, pre_diff_code, rotational_symmetry,
    /// dimensionality, normalization)`: decisions by the nearest point (over `dimensionality`
    /// samples per symbol).
    ///
    /// # Errors
    /// No points, a dimensionality of 0 or one that does not divide the points, a code whose
    /// length is not the points' (an empty code is none).
    pub fn calcdist(
        points: &[Complex32],
        pre_diff_code: &[u32],
        rotational_symmetry: u32,
        dimensionality: usize,
        normalization: Normalization,
    ) -> Result<Self, ConstellationError> {
        Self::custom(
            Kind::Calcdist,
            points,
            pre_diff_code,
            rotational_symmetry,
            dimensionality,
            normalization,
        )
    }

    /// GNU Radio's `constellation_rect(points, pre_diff_code, rotational_symmetry,
    /// real_sectors, imag_sectors, width_real_sectors, width_imag_sectors, normalization)`:
    /// a sample is decided by its sector on a grid of `real_sectors` × `imag_sectors`
    /// centred on 0 (samples beyond the grid fall in its edge sectors); each sector decides
    /// for the point nearest its centre.
    ///
    /// # Errors
    /// As [`calcdist`](Self::calcdist), and no sectors or a width that is not positive.
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        points: &[Complex32],
        pre_diff_code: &[u32],
        rotational_symmetry: u32,
        (real_sectors, imag_sectors): (u32, u32),
        (width_real, width_imag): (f32, f32),
        normalization: Normalization,
    ) -> Result<Self, ConstellationError> {
        if real_sectors == 0 || imag_sectors == 0 {
            return Err(bad(
                "a rectangular constellation needs at least one sector each way",
            ));
        }
        let sectors = u64::from(real_sectors) * u64::from(imag_sectors);
        if sectors.saturating_mul(points.len() as u64) > MAX_WORK {
            return Err(bad(format!(
                "{sectors} sectors of {} points: over the {MAX_WORK} distances radioflow computes \
                 for a constellation",
                points.len()
            )));
        }
        if !(width_real > 0.0
            && width_imag > 0.0
            && width_real.is_finite()
            && width_imag.is_finite())
        {
            return Err(bad("the sector widths must be > 0"));
        }
        // The points first (normalized), then the sectors scaled with them, each deciding
        // for the point nearest its centre.
        let mut c = Self::custom(
            Kind::Calcdist,
            points,
            pre_diff_code,
            rotational_symmetry,
            1,
            normalization,
        )?;
        let scale = c.scalefactor;
        let mut rect = Rect {
            real_sectors,
            imag_sectors,
            given_widths: (width_real, width_imag),
            widths: (width_real * scale, width_imag * scale),
            sector_values: Vec::new(),
        };
        rect.sector_values = (0..real_sectors * imag_sectors)
            .map(|s| c.closest(&[sector_centre(&rect, s)]))
            .collect();
        c.kind = Kind::Rect(rect);
        Ok(c)
    }

    fn custom(
        kind: Kind,
        points: &[Complex32],
        pre_diff_code: &[u32],
        rotational_symmetry: u32,
        dimensionality: usize,
        normalization: Normalization,
    ) -> Result<Self, ConstellationError> {
        if points.is_empty() {
            return Err(bad("no points"));
        }
        if points
            .iter()
            .any(|p| !p.re.is_finite() || !p.im.is_finite())
        {
            return Err(bad("a point is not finite"));
        }
        if dimensionality == 0 || !points.len().is_multiple_of(dimensionality) {
            return Err(bad(format!(
                "{} points do not make symbols of dimensionality {dimensionality}",
                points.len()
            )));
        }
        if !pre_diff_code.is_empty() && pre_diff_code.len() != points.len() {
            return Err(bad(format!(
                "the symbol map has {} values for {} points",
                pre_diff_code.len(),
                points.len()
            )));
        }
        let n = points.len() as f32;
        // f32 sums in order, as GNU Radio's constructor does.
        let scalefactor = match normalization {
            Normalization::None => 1.0,
            Normalization::Power => (n / points.iter().map(|c| c.norm_sqr()).sum::<f32>()).sqrt(),
            Normalization::Amplitude => n / points.iter().map(|c| c.norm()).sum::<f32>(),
        };
        if !scalefactor.is_finite() {
            return Err(bad("every point is 0: nothing to normalize"));
        }
        Ok(Self {
            kind,
            given: points.to_vec(),
            points: points.iter().map(|&p| p * scalefactor).collect(),
            pre_diff_code: pre_diff_code.to_vec(),
            apply_pre_diff_code: !pre_diff_code.is_empty(),
            rotational_symmetry,
            dimensionality,
            normalization,
            scalefactor,
            lut: None,
        })
    }

    /// This constellation with a soft-decision table of `2^precision` × `2^precision`
    /// entries over [-1, 1]² (GNU Radio's `gen_soft_dec_lut(precision)`, noise power 1):
    /// [`soft_decision`](Self::soft_decision) then reads the table.
    ///
    /// # Errors
    /// A precision outside 1 to 10: a table of a million entries at most (GNU Radio takes any;
    /// one of 12 would be 16 million entries, each computed over every point, and its memory
    /// a file could ask for without bound).
    pub fn with_soft_lut(mut self, precision: u32) -> Result<Self, ConstellationError> {
        if !(1..=10).contains(&precision) {
            return Err(bad(format!(
                "soft-decision precision {precision} is not 1 to 10"
            )));
        }
        let entries = 1u64 << (2 * precision);
        if entries.saturating_mul(self.points.len() as u64) > MAX_WORK {
            return Err(bad(format!(
                "a soft-decision table of precision {precision} over {} points: over the \
                 {MAX_WORK} distances radioflow computes for a constellation",
                self.points.len()
            )));
        }
        let scale = 2f32.powi(precision as i32);
        let bits = self.soft_bits();
        let step = 2.0 / (scale - 1.0);
        let mut table = Vec::new();
        let mut entry = vec![0.0; bits];
        // Float steps as GNU Radio takes them, so the table has GNU Radio's entries.
        let mut y = -1.0f32;
        while y < 1.0 + step / 2.0 {
            let mut x = -1.0f32;
            while x < 1.0 + step / 2.0 {
                self.calc_soft_dec(Complex32::new(x, y), 1.0, &mut entry);
                table.extend_from_slice(&entry);
                x += step;
            }
            y += step;
        }
        self.lut = Some(SoftLut {
            precision,
            scale,
            bits,
            table,
        });
        Ok(self)
    }

    /// The points, normalized (GNU Radio's `points()`).
    pub fn points(&self) -> &[Complex32] {
        &self.points
    }

    /// Points per symbol.
    pub fn dimensionality(&self) -> usize {
        self.dimensionality
    }

    /// How many symbols (points / dimensionality).
    pub fn arity(&self) -> usize {
        self.points.len() / self.dimensionality
    }

    /// GNU Radio's `bits_per_symbol()`: ⌊log2(points) / dimensionality⌋.
    pub fn bits_per_symbol(&self) -> usize {
        ((self.points.len() as f64).ln() / self.dimensionality as f64 / 2f64.ln()).floor() as usize
    }

    /// The rotational symmetry.
    pub fn rotational_symmetry(&self) -> u32 {
        self.rotational_symmetry
    }

    /// The symbol code (GNU Radio's `pre_diff_code`), and whether it is applied.
    pub fn pre_diff_code(&self) -> (&[u32], bool) {
        (&self.pre_diff_code, self.apply_pre_diff_code)
    }

    /// The soft-decision table's precision, if it has one.
    pub fn soft_lut_precision(&self) -> Option<u32> {
        self.lut.as_ref().map(|l| l.precision)
    }

    /// How many values [`soft_decision`](Self::soft_decision) gives: log2 of the points.
    pub fn soft_bits(&self) -> usize {
        ((self.points.len() as f64).ln() / 2f64.ln()) as usize
    }

    /// The symbol (point index) `sample` (`dimensionality` samples) is decided as: GNU
    /// Radio's `decision_maker`.
    ///
    /// # Panics
    /// If `sample` holds fewer than `dimensionality` samples.
    #[inline]
    pub fn decision(&self, sample: &[Complex32]) -> u32 {
        let s = sample[0];
        let (re, im) = (s.re, s.im);
        match &self.kind {
            Kind::Calcdist => self.closest(&sample[..self.dimensionality]),
            Kind::Rect(rect) => rect.sector_values[sector(rect, s)],
            Kind::Bpsk => u32::from(re > 0.0),
            Kind::Qpsk => 2 * u32::from(im > 0.0) + u32::from(re > 0.0),
            Kind::Dqpsk => match (re > 0.0, im > 0.0) {
                (true, true) => 0,
                (true, false) => 3,
                (false, true) => 1,
                (false, false) => 2,
            },
            Kind::Psk8 => {
                let mut r = if re.abs() <= im.abs() { 4 } else { 0 };
                if re <= 0.0 {
                    r |= 1;
                }
                if im <= 0.0 {
                    r |= 2;
                }
                r
            }
            Kind::Qam16 => qam16_decision(re, im),
        }
    }

    /// The nearest point's index (the first of equals): GNU Radio's `get_closest_point`.
    fn closest(&self, sample: &[Complex32]) -> u32 {
        let d = self.dimensionality;
        let mut best = (f32::INFINITY, 0);
        for (j, point) in self.points.chunks_exact(d).enumerate() {
            let dist: f32 = sample
                .iter()
                .zip(point)
                .map(|(s, p)| (s - p).norm_sqr())
                .sum();
            if j == 0 || dist < best.0 {
                best = (dist, j as u32);
            }
        }
        best.1
    }

    /// Writes the soft decisions for `sample` into `out` ([`soft_bits`](Self::soft_bits)
    /// values, the most significant bit first, positive for a 1): GNU Radio's
    /// `soft_decision_maker`, from the table where there is one, else computed (noise power 1).
    ///
    /// # Panics
    /// If `out` is shorter than `soft_bits()`.
    #[inline]
    pub fn soft_decision(&self, sample: Complex32, out: &mut [f32]) {
        let Some(lut) = &self.lut else {
            self.calc_soft_dec(sample, 1.0, out);
            return;
        };
        // GNU Radio clips to just inside ±1 and indexes the row-major table.
        let clip = |x: f32| 0.5 * ((x + 0.99).abs() - (x - 0.99).abs());
        let half = lut.scale / 2.0;
        let xre = ((1.0 + clip(sample.re)) * half).floor();
        let xim = ((1.0 + clip(sample.im)) * half).floor();
        let mut index = (lut.scale * xim + xre) as i64;
        let max = (lut.scale * lut.scale) as i64;
        while index >= max {
            index -= lut.scale as i64;
        }
        while index < 0 {
            index += lut.scale as i64;
        }
        // GNU Radio's float steps may make a table a row short of `scale²`: the last entry
        // stands for any beyond it.
        let rows = lut.table.len() / lut.bits;
        let at = (index as usize).min(rows - 1) * lut.bits;
        out[..lut.bits].copy_from_slice(&lut.table[at..at + lut.bits]);
    }

    /// GNU Radio's `calc_soft_dec`: per bit, ln of the summed `exp(-|s - p| / npwr)` of the
    /// points whose code has the bit set, minus that of those where it is clear.
    fn calc_soft_dec(&self, sample: Complex32, npwr: f32, out: &mut [f32]) {
        // A point's code has 32 bits at most (and no constellation 2^32 points): sums on the
        // stack, no allocation per sample.
        let k = self.soft_bits().min(32);
        let mut ones = [0.0f32; 32];
        let mut zeros = [0.0f32; 32];
        for (i, p) in self.points.iter().enumerate() {
            let d = (-(sample - p).norm() / npwr).exp();
            let v = if self.apply_pre_diff_code {
                self.pre_diff_code[i]
            } else {
                i as u32
            };
            for j in 0..k {
                if (v >> j) & 1 == 0 {
                    zeros[j] += d;
                } else {
                    ones[j] += d;
                }
            }
        }
        for i in 0..k {
            out[k - 1 - i] = ones[i].ln() - zeros[i].ln();
        }
    }
}

/// The sector of a rectangular constellation `s` falls in (GNU Radio's truncation toward 0
/// and clamping to the grid).
#[inline]
fn sector(rect: &Rect, s: Complex32) -> usize {
    let axis = |x: f32, width: f32, n: u32| -> usize {
        let k = (f64::from(x / width) + f64::from(n) / 2.0) as i64;
        k.clamp(0, i64::from(n) - 1) as usize
    };
    let re = axis(s.re, rect.widths.0, rect.real_sectors);
    let im = axis(s.im, rect.widths.1, rect.imag_sectors);
    re * rect.imag_sectors as usize + im
}

fn sector_centre(rect: &Rect, sector: u32) -> Complex32 {
    let real = (sector as f32 / rect.imag_sectors as f32) as u32;
    let imag = sector - real * rect.imag_sectors;
    let at =
        |k: u32, n: u32, w: f32| ((f64::from(k) + 0.5 - f64::from(n) / 2.0) * f64::from(w)) as f32;
    Complex32::new(
        at(real, rect.real_sectors, rect.widths.0),
        at(imag, rect.imag_sectors, rect.widths.1),
    )
}

/// GNU Radio's 16QAM slicer: the first of its regions (edges included) that holds the sample.
fn qam16_decision(re: f32, im: f32) -> u32 {
    let l2 = 2.0 * 0.1f32.sqrt();
    let (lo_im, hi_im) = (im <= 0.0 && im >= -l2, im >= 0.0 && im <= l2);
    let (lo_re, hi_re) = (re <= 0.0 && re >= -l2, re >= 0.0 && re <= l2);
    let checks: [(bool, u32); 16] = [
        (lo_im && hi_re, 0),
        (lo_im && lo_re, 1),
        (im <= -l2 && re >= l2, 2),
        (im <= -l2 && re <= -l2, 3),
        (lo_im && re <= -l2, 4),
        (lo_im && re >= l2, 5),
        (im <= -l2 && lo_re, 6),
        (im <= -l2 && hi_re, 7),
        (im >= l2 && re <= -l2, 8),
        (im >= l2 && re >= l2, 9),
        (hi_im && lo_re, 10),
        (hi_im && hi_re, 11),
        (im >= l2 && hi_re, 12),
        (im >= l2 && lo_re, 13),
        (hi_im && re >= l2, 14),
        (hi_im && re <= -l2, 15),
    ];
    checks.iter().find(|c| c.0).map_or(0, |c| c.1)
}

impl fmt::Display for Constellation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = match self.kind {
            Kind::Bpsk => Some("bpsk"),
            Kind::Qpsk => Some("qpsk"),
            Kind::Dqpsk => Some("dqpsk"),
            Kind::Psk8 => Some("8psk"),
            Kind::Qam16 => Some("16qam"),
            Kind::Calcdist | Kind::Rect(_) => None,
        };
        if let Some(name) = named {
            f.write_str(name)?;
        } else {
            let kind = if matches!(self.kind, Kind::Rect(_)) {
                "rect"
            } else {
                "calcdist"
            };
            write!(f, "{kind} points=")?;
            for (i, p) in self.given.iter().enumerate() {
                let sep = if i > 0 { ";" } else { "" };
                write!(f, "{sep}{},{}", p.re, p.im)?;
            }
            f.write_str(" map=")?;
            for (i, v) in self.pre_diff_code.iter().enumerate() {
                let sep = if i > 0 { "," } else { "" };
                write!(f, "{sep}{v}")?;
            }
            write!(f, " rot={}", self.rotational_symmetry)?;
            match &self.kind {
                Kind::Rect(r) => write!(
                    f,
                    " sectors={},{} widths={},{}",
                    r.real_sectors, r.imag_sectors, r.given_widths.0, r.given_widths.1
                )?,
                _ => write!(f, " dim={}", self.dimensionality)?,
            }
            write!(f, " norm={}", self.normalization.word())?;
        }
        if let Some(lut) = &self.lut {
            write!(f, " lut={}", lut.precision)?;
        }
        Ok(())
    }
}

fn numbers<T: FromStr>(key: &str, text: &str) -> Result<Vec<T>, ConstellationError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|x| {
            x.parse()
                .map_err(|_| bad(format!("{key}: '{x}' is not a number")))
        })
        .collect()
}

fn pair<T: FromStr + Copy>(key: &str, text: &str) -> Result<(T, T), ConstellationError> {
    match numbers::<T>(key, text)?.as_slice() {
        &[a, b] => Ok((a, b)),
        _ => Err(bad(format!("{key} takes two numbers, a,b"))),
    }
}

impl FromStr for Constellation {
    type Err = ConstellationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let kind = words.next().ok_or_else(|| bad("empty"))?;
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| bad(format!("'{w}' is not key=value")))?;
            if fields.iter().any(|(x, _)| *x == k) {
                return Err(bad(format!("{k} given twice")));
            }
            fields.push((k, v));
        }
        let get = |k: &str| fields.iter().find(|(x, _)| *x == k).map(|(_, v)| *v);
        let allowed: &[&str] = match kind {
            "calcdist" => &["points", "map", "rot", "dim", "norm", "lut"],
            "rect" => &["points", "map", "rot", "sectors", "widths", "norm", "lut"],
            _ => &["lut"],
        };
        if let Some((k, _)) = fields.iter().find(|(k, _)| !allowed.contains(k)) {
            return Err(bad(format!("{kind} takes no '{k}'")));
        }
        let custom = || -> Result<_, ConstellationError> {
            let pts = get("points").ok_or_else(|| bad(format!("{kind} needs points=")))?;
            let points = pts
                .split(';')
                .map(|p| pair::<f32>("points", p).map(|(re, im)| Complex32::new(re, im)))
                .collect::<Result<Vec<_>, _>>()?;
            let map = numbers::<u32>("map", get("map").unwrap_or(""))?;
            let rot = get("rot").map_or(Ok(4), |r| {
                r.parse()
                    .map_err(|_| bad(format!("rot: '{r}' is not a whole number")))
            })?;
            let norm = get("norm").map_or(Ok(Normalization::Amplitude), str::parse)?;
            Ok((points, map, rot, norm))
        };
        let c = match kind {
            "bpsk" => Self::bpsk(),
            "qpsk" => Self::qpsk(),
            "dqpsk" => Self::dqpsk(),
            "8psk" => Self::psk8(),
            "16qam" => Self::qam16(),
            "calcdist" => {
                let (points, map, rot, norm) = custom()?;
                let dim = get("dim").map_or(Ok(1), |d| {
                    d.parse()
                        .map_err(|_| bad(format!("dim: '{d}' is not a whole number")))
                })?;
                Self::calcdist(&points, &map, rot, dim, norm)?
            }
            "rect" => {
                let (points, map, rot, norm) = custom()?;
                let sectors = pair::<u32>("sectors", get("sectors").unwrap_or("2,2"))?;
                let widths = pair::<f32>("widths", get("widths").unwrap_or("1,1"))?;
                Self::rect(&points, &map, rot, sectors, widths, norm)?
            }
            other => {
                return Err(bad(format!(
                "'{other}' is not a constellation (bpsk, qpsk, dqpsk, 8psk, 16qam, calcdist, rect)"
            )))
            }
        };
        match get("lut") {
            None => Ok(c),
            Some(p) => c.with_soft_lut(
                p.parse()
                    .map_err(|_| bad(format!("lut: '{p}' is not a precision")))?,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn samples(n: usize, spread: f32) -> Vec<Complex32> {
        let mut rng = StdRng::seed_from_u64(35);
        (0..n)
            .map(|_| {
                Complex32::new(
                    rng.gen_range(-spread..spread),
                    rng.gen_range(-spread..spread),
                )
            })
            .collect()
    }

    /// The nearest point by plain search, in f64.
    fn nearest(points: &[Complex32], s: Complex32) -> usize {
        let d = |p: &Complex32| {
            let (a, b) = (f64::from(s.re - p.re), f64::from(s.im - p.im));
            a * a + b * b
        };
        (0..points.len())
            .min_by(|&a, &b| d(&points[a]).total_cmp(&d(&points[b])))
            .unwrap()
    }

    #[test]
    fn the_named_slicers_decide_for_the_nearest_point() {
        for c in [
            Constellation::bpsk(),
            Constellation::qpsk(),
            Constellation::dqpsk(),
            Constellation::psk8(),
            Constellation::qam16(),
        ] {
            for s in samples(2000, 1.5) {
                assert_eq!(
                    c.decision(&[s]) as usize,
                    nearest(c.points(), s),
                    "{c} at {s}"
                );
            }
        }
    }

    #[test]
    fn calcdist_and_rect_decide_as_the_naive_search_and_normalize() {
        let pts: Vec<Complex32> = [
            (-3., -3.),
            (-1., -3.),
            (1., -3.),
            (3., -3.),
            (-3., 3.),
            (-1., 3.),
            (1., 3.),
            (3., 3.),
        ]
        .iter()
        .map(|&(a, b)| Complex32::new(a, b))
        .collect();
        let c = Constellation::calcdist(&pts, &[], 2, 1, Normalization::Power).unwrap();
        let power: f32 = c.points().iter().map(|p| p.norm_sqr()).sum::<f32>() / 8.0;
        assert!((power - 1.0).abs() < 1e-6);
        for s in samples(2000, 1.5) {
            assert_eq!(c.decision(&[s]) as usize, nearest(c.points(), s));
        }
        // A 4 x 2 grid of sectors, width 2 (before scaling) around each point.
        let r = Constellation::rect(&pts, &[], 2, (4, 2), (2.0, 6.0), Normalization::Amplitude)
            .unwrap();
        let mean: f32 = r.points().iter().map(|p| p.norm()).sum::<f32>() / 8.0;
        assert!((mean - 1.0).abs() < 1e-6);
        for s in samples(2000, 1.5) {
            assert_eq!(r.decision(&[s]) as usize, nearest(r.points(), s), "{s}");
        }
        // Two dimensions: the symbol nearest over both samples.
        let two = Constellation::calcdist(&pts, &[], 1, 2, Normalization::None).unwrap();
        assert_eq!(two.arity(), 4);
        assert_eq!(two.bits_per_symbol(), 1);
        // Symbol 2 is the pair (-3+3j, -1+3j).
        let s = [Complex32::new(-2.9, 3.1), Complex32::new(-1.2, 2.8)];
        assert_eq!(two.decision(&s), 2);
    }

    #[test]
    fn soft_decisions_are_the_log_likelihood_ratios_and_the_table_agrees() {
        let c = Constellation::qpsk();
        let mut out = [0.0; 2];
        c.soft_decision(Complex32::new(0.7, 0.7), &mut out);
        // Point 3 (both bits 1) is nearest: both ratios positive.
        assert!(out[0] > 0.0 && out[1] > 0.0, "{out:?}");
        // The naive sums in f64.
        let s = Complex32::new(-0.2, 0.5);
        c.soft_decision(s, &mut out);
        for (b, got) in out.iter().enumerate() {
            let bit = 1 - b;
            let (mut one, mut zero) = (0.0f64, 0.0f64);
            for (i, p) in c.points().iter().enumerate() {
                let d = (-f64::from((s - p).norm())).exp();
                if (i >> bit) & 1 == 1 {
                    one += d
                } else {
                    zero += d
                }
            }
            assert!((f64::from(*got) - (one.ln() - zero.ln())).abs() < 1e-5);
        }
        let t = c.clone().with_soft_lut(8).unwrap();
        assert_eq!(t.soft_lut_precision(), Some(8));
        let mut from_table = [0.0; 2];
        for s in samples(500, 0.95) {
            c.soft_decision(s, &mut out);
            t.soft_decision(s, &mut from_table);
            for (a, b) in out.iter().zip(&from_table) {
                assert!((a - b).abs() < 0.05, "{s}: {out:?} {from_table:?}");
            }
        }
    }

    #[test]
    fn the_text_form_round_trips_and_refuses_with_reasons() {
        for text in [
            "qpsk",
            "16qam lut=4",
            "calcdist points=-1,0;1,0 map=0,1 rot=2 dim=1 norm=amplitude",
            "rect points=-1,-1;-1,1;1,1;1,-1 map=0,1,3,2 rot=4 sectors=2,2 widths=1,1 norm=power",
        ] {
            let c: Constellation = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
        for (text, why) in [
            ("qam64", "is not a constellation"),
            ("calcdist map=0,1", "needs points="),
            (
                "calcdist points=1,0;-1,0 map=0",
                "symbol map has 1 values for 2 points",
            ),
            ("calcdist points=1,0;-1,0;0,1 dim=2", "do not make symbols"),
            ("calcdist points=0,0", "nothing to normalize"),
            ("qpsk lut=40", "precision 40"),
            ("qpsk dim=2", "takes no 'dim'"),
            (
                "rect points=1,0;-1,0 sectors=100000,100000",
                "over the 67108864 distances",
            ),
        ] {
            let e = text.parse::<Constellation>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
