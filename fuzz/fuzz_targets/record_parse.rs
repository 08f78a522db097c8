//! Arbitrary text into the record parser: it must never panic; a record it accepts must print
//! and parse back to the same record (and the same text), survive a JSON round trip, and replay
//! without panicking.
#![no_main]

use fiveup_engine::notation::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::parse(text) else {
        return;
    };
    record.check().expect("a parsed record is well formed");
    let printed = record.to_text();
    let again = Record::parse(&printed).expect("a printed record parses");
    assert_eq!(again, record);
    assert_eq!(again.to_text(), printed);
    let json = record.to_json();
    assert_eq!(Record::from_json(&json).expect("a record's JSON parses"), record);
    if let Ok(game) = record.replay() {
        assert_eq!(game.hands.len(), record.hands.len());
    }
});
