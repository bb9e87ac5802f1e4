//! `core:datetime` (RFC 3339 in UTC, `2024-05-01T12:00:00.25Z`) to and from GNU Radio's
//! `rx_time`: whole seconds since the Unix epoch and a fraction.

/// Days from 1970-01-01 to a proleptic Gregorian date (months 1-12).
fn days_from_date(year: i64, month: i64, day: i64) -> i64 {
    // Count from 0000-03-01 so that the leap day is the last day of a year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day counted from 1970-01-01: (year, month 1-12, day 1-31).
fn date_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` into (seconds since the epoch, fraction).
///
/// # Errors
/// Another layout, a time offset other than `Z`, a field out of range, or a date before 1970;
/// the message says which.
pub fn parse(text: &str) -> Result<(u64, f64), String> {
    let bad = |why: &str| format!("'{text}' is not an RFC 3339 UTC time ({why})");
    let Some(body) = text.strip_suffix('Z').or_else(|| text.strip_suffix('z')) else {
        return Err(bad("it must end in Z: SigMF allows no other offset"));
    };
    let (date, time) = body
        .split_once(['T', 't'])
        .ok_or_else(|| bad("no T between date and time"))?;
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let number = |s: &str, len: usize, what: &str| -> Result<i64, String> {
        if s.len() != len || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(&format!("{what} is not {len} digits")));
        }
        Ok(s.parse().unwrap())
    };
    let d: Vec<&str> = date.split('-').collect();
    let c: Vec<&str> = clock.split(':').collect();
    if d.len() != 3 || c.len() != 3 {
        return Err(bad("expected YYYY-MM-DDTHH:MM:SS"));
    }
    let (year, month, day) = (
        number(d[0], 4, "the year")?,
        number(d[1], 2, "the month")?,
        number(d[2], 2, "the day")?,
    );
    let (hour, minute, second) = (
        number(c[0], 2, "the hour")?,
        number(c[1], 2, "the minute")?,
        number(c[2], 2, "the second")?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return Err(bad("a field is out of range"));
    }
    // 60 is a leap second; it is counted as the next second's start.
    if second > 60 {
        return Err(bad("the second is out of range"));
    }
    if date_from_days(days_from_date(year, month, day)) != (year, month, day) {
        return Err(bad("no such day"));
    }
    let frac = if fraction.is_empty() {
        0.0
    } else if fraction.bytes().all(|b| b.is_ascii_digit()) {
        format!("0.{fraction}").parse::<f64>().unwrap()
    } else {
        return Err(bad("the fraction of a second is not digits"));
    };
    let seconds = days_from_date(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    let seconds = u64::try_from(seconds).map_err(|_| bad("before 1970"))?;
    Ok((seconds, frac))
}

/// Formats seconds since the epoch and a fraction (`0 <= frac < 1`) as
/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction to the nanosecond without trailing zeros.
pub fn format(seconds: u64, frac: f64) -> String {
    let mut nanos = (frac.clamp(0.0, 1.0) * 1e9).round() as u64;
    let mut seconds = seconds;
    if nanos >= 1_000_000_000 {
        seconds = seconds.saturating_add(1);
        nanos -= 1_000_000_000;
    }
    let days = (seconds / 86_400) as i64;
    let rem = seconds % 86_400;
    let (year, month, day) = date_from_days(days);
    let mut text = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    );
    if nanos > 0 {
        let digits = format!("{nanos:09}");
        text.push('.');
        text.push_str(digits.trim_end_matches('0'));
    }
    text.push('Z');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(parse("1970-01-01T00:00:00Z"), Ok((0, 0.0)));
        assert_eq!(parse("2023-11-14T22:13:20.25Z"), Ok((1_700_000_000, 0.25)));
        assert_eq!(parse("2000-02-29T12:00:00Z"), Ok((951_825_600, 0.0)));
        assert_eq!(format(1_700_000_000, 0.25), "2023-11-14T22:13:20.25Z");
        assert_eq!(format(951_825_600, 0.0), "2000-02-29T12:00:00Z");
        assert_eq!(format(0, 0.000000001), "1970-01-01T00:00:00.000000001Z");
    }

    #[test]
    fn every_day_over_centuries_round_trips() {
        for days in (0..200 * 366).step_by(7) {
            let s = days as u64 * 86_400 + 3_723;
            assert_eq!(parse(&format(s, 0.5)), Ok((s, 0.5)), "{}", format(s, 0.5));
        }
    }

    #[test]
    fn malformed_times_say_why() {
        for (text, why) in [
            ("2023-11-14T22:13:20", "must end in Z"),
            ("2023-11-14T22:13:20+01:00", "must end in Z"),
            ("2023-11-14 22:13:20Z", "no T"),
            ("2023-13-14T22:13:20Z", "out of range"),
            ("2023-02-30T22:13:20Z", "no such day"),
            ("1969-12-31T23:59:59Z", "before 1970"),
            ("2023-11-14T22:13:2xZ", "the second is not 2 digits"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
