//! When two records name the same event. Sites write one event many ways: with or without
//! the term (第21期), the stage (七番勝負), the game of the match (第7局), with full-width
//! digits, spaces, brackets, 旧字体 (龍王戦), or kanji numerals (第二十一期). Two events are
//! the same when, in the form compared ([`event_form`]), one holds the other: 竜王戦 is
//! 第21期竜王戦七番勝負第5局. Two that neither holds are other events (第21期竜王戦 and
//! 第22期竜王戦, 竜王戦第5局 and 竜王戦第7局, 王将戦 and 竜王戦).

use kifudex_notation::normalize::fold;

/// An event as twins compare it: [`fold`] (width, case, kana, 旧字体), without spaces,
/// punctuation and brackets (only letters and digits kept), and a kanji numeral after 第
/// written in digits (第二十一期 → 第21期). `None` when nothing is left.
pub fn event_form(event: &str) -> Option<String> {
    let kept: Vec<char> = fold(event)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect();
    let mut out = String::with_capacity(kept.len() * 3);
    let mut i = 0;
    while i < kept.len() {
        let c = kept[i];
        out.push(c);
        i += 1;
        if c != '第' {
            continue;
        }
        let run = kept[i..]
            .iter()
            .take_while(|&&d| kanji_digit(d).is_some() || is_kanji_unit(d))
            .count();
        if let Some(n) = kanji_number(&kept[i..i + run]) {
            out.push_str(&n.to_string());
            i += run;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether two events' compared forms are the same event: one holds the other.
pub fn same_event(a: &str, b: &str) -> bool {
    a.contains(b) || b.contains(a)
}

fn kanji_digit(c: char) -> Option<u64> {
    "〇一二三四五六七八九"
        .chars()
        .position(|d| d == c)
        .map(|p| p as u64)
}

fn is_kanji_unit(c: char) -> bool {
    matches!(c, '十' | '百' | '千')
}

/// The value of a kanji numeral: 二十一 = 21, 百二 = 102, 二〇〇八 = 2008 (digit by digit).
/// `None` for an empty run.
fn kanji_number(run: &[char]) -> Option<u64> {
    if run.is_empty() {
        return None;
    }
    let (mut total, mut digits) = (0u64, None::<u64>);
    for &c in run {
        if let Some(d) = kanji_digit(c) {
            digits = Some(digits.map_or(d, |n| n.saturating_mul(10).saturating_add(d)));
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            _ => 1000,
        };
        total = total.saturating_add(digits.take().unwrap_or(1).saturating_mul(unit));
    }
    Some(total.saturating_add(digits.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        same_event(&event_form(a).unwrap(), &event_form(b).unwrap())
    }

    #[test]
    fn forms() {
        assert_eq!(
            event_form("第２１期 竜王戦七番勝負 第5局").as_deref(),
            Some("第21期竜王戦七番勝負第5局")
        );
        assert_eq!(
            event_form("第二十一期龍王戦「第五局」").as_deref(),
            Some("第21期竜王戦第5局")
        );
        assert_eq!(event_form("第百二回").as_deref(), Some("第102回"));
        assert_eq!(event_form("第二〇〇八回").as_deref(), Some("第2008回"));
        assert_eq!(event_form("第十期").as_deref(), Some("第10期"));
        // Not after 第: left as written (七番勝負 stays).
        assert_eq!(event_form("七番勝負").as_deref(), Some("七番勝負"));
        assert_eq!(event_form("NHK杯").as_deref(), Some("nhk杯"));
        assert_eq!(event_form(" ・「」 "), None);
    }

    #[test]
    fn the_same_event_or_another() {
        assert!(same("第21期竜王戦七番勝負第5局", "竜王戦"));
        assert!(same("竜王戦", "第21期竜王戦七番勝負第5局"));
        assert!(same("第二十一期龍王戦", "第21期竜王戦七番勝負 第5局"));
        assert!(same("ＮＨＫ杯", "第60回NHK杯テレビ将棋トーナメント"));
        assert!(same("竜王戦", "竜王戦"));
        assert!(!same("第21期竜王戦", "第22期竜王戦"));
        assert!(!same("竜王戦第5局", "竜王戦第7局"));
        assert!(!same("王将戦", "竜王戦"));
        assert!(!same("第21期竜王戦七番勝負第5局", "名人戦"));
    }
}
