//! Numbers as people type them: suffixes, digit grouping, decimal commas.

/// Parses a count or size written as `7B`, `83M`, `6.7e9`, `1,000,000`, `1_000`.
///
/// A comma is read the same way wherever a value comes from (the form, a
/// link, a CLI flag, a TOML file): commas that group digits in threes are
/// thousands separators (`1,000,000`, `1,234.5`); a single comma not followed
/// by exactly three digits can only be a decimal comma (`1,5` is 1.5); a
/// single comma followed by three digits (`1,500`) could be either, so it is
/// refused rather than guessed (a silent 1000x error otherwise).
pub fn parse_number(text: &str) -> Result<f64, String> {
    let t = text.trim().replace('_', "");
    let not_a_number = || format!("`{}` is not a number", text.trim());
    let (digits, scale) = match t.chars().last().ok_or_else(not_a_number)? {
        'k' | 'K' => (&t[..t.len() - 1], 1e3),
        'm' | 'M' => (&t[..t.len() - 1], 1e6),
        'b' | 'B' | 'g' | 'G' => (&t[..t.len() - 1], 1e9),
        't' | 'T' => (&t[..t.len() - 1], 1e12),
        _ => (t.as_str(), 1.0),
    };
    let digits = without_commas(digits.trim(), text.trim())?;
    let value = digits.parse::<f64>().map_err(|_| not_a_number())? * scale;
    value.is_finite().then_some(value).ok_or_else(not_a_number)
}

/// The number with its commas resolved (see [`parse_number`]).
fn without_commas(digits: &str, original: &str) -> Result<String, String> {
    if !digits.contains(',') {
        return Ok(digits.to_string());
    }
    // The integer part is the leading run of digits and commas, after an optional sign.
    let unsigned = digits.trim_start_matches(['-', '+']);
    let sign = &digits[..digits.len() - unsigned.len()];
    let end = unsigned.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(unsigned.len());
    let (head, rest) = unsigned.split_at(end);
    if rest.contains(',') {
        return Err(format!("`{original}` is not a number: a comma after the decimal point"));
    }
    let groups: Vec<&str> = head.split(',').collect();
    let grouped_in_threes = !groups[0].is_empty() && groups[1..].iter().all(|g| g.len() == 3);
    match (groups.len(), grouped_in_threes, rest.starts_with('.')) {
        // 1,234,567 or 1,234.5: thousands separators.
        (n, true, decimal_point) if n > 2 || decimal_point => Ok(format!("{sign}{}{rest}", groups.concat())),
        (2, true, false) => Err(format!(
            "`{original}` is ambiguous: write {} (thousands) or {}.{} (decimal comma)",
            groups.concat(),
            groups[0],
            groups[1]
        )),
        (2, false, false) if !groups[0].is_empty() && !groups[1].is_empty() => {
            Ok(format!("{sign}{}.{}{rest}", groups[0], groups[1]))
        }
        _ => Err(format!("`{original}` is not a number: misplaced comma")),
    }
}
