//! Verifiable deals, scheme `fiveup-deal-v1` (see `docs/protocol.md`).
//!
//! Before a hand the server draws a fresh 32-byte server seed and publishes its commitment,
//! `SHA-256(server_seed)`. Seated clients then send 32-byte seeds of their own. The hand is
//! dealt from the deal seed
//!
//! ```text
//! SHA-256( "fiveup-deal-v1" || server_seed || players as one byte ||
//!          for each seat 0..players: 0x00 (no seed) or 0x01 || client_seed )
//! ```
//!
//! used as the engine's 32-byte [`Seed`] with the engine's shuffle (version 1) for that hand
//! number. After the hand the server seed and the client seeds are revealed, so anyone can
//! check the commitment and re-derive the deal.

use fiveup_engine::{Deal, NoDouble, Rules, Seed};
use sha2::{Digest, Sha256};

pub use fiveup_protocol::DEAL_SCHEME;

/// SHA-256 of `bytes`.
#[must_use]
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The commitment to a server seed: `SHA-256(server_seed)`.
#[must_use]
pub fn commitment(server_seed: &[u8; 32]) -> [u8; 32] {
    sha256(server_seed)
}

/// The deal seed of a hand from the server seed and each seat's seed (in seat order, one per
/// player; `None` for a seat that sent none).
#[must_use]
pub fn deal_seed(server_seed: &[u8; 32], client_seeds: &[Option<[u8; 32]>]) -> Seed {
    let mut h = Sha256::new();
    h.update(DEAL_SCHEME.as_bytes());
    h.update(server_seed);
    h.update([client_seeds.len() as u8]);
    for s in client_seeds {
        match s {
            None => h.update([0u8]),
            Some(b) => {
                h.update([1u8]);
                h.update(b);
            }
        }
    }
    Seed(h.finalize().into())
}

/// Whether the hand `start` begins needs the redeal rule (led by the highest double, and the
/// rules redeal when none was dealt).
#[must_use]
pub fn needs_double(rules: &Rules, highest_double: bool) -> bool {
    highest_double && rules.no_double == NoDouble::Redeal
}

/// The deal of hand `hand_no` from its deal seed.
#[must_use]
pub fn deal(seed: &Seed, hand_no: u16, rules: &Rules, highest_double: bool) -> Deal {
    Deal::from_seed(
        seed,
        u32::from(hand_no),
        rules,
        needs_double(rules, highest_double),
    )
}

/// Lowercase hex.
#[must_use]
pub fn to_hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// 64 hex digits (either case) as 32 bytes.
pub fn parse_seed_hex(s: &str) -> Result<[u8; 32], String> {
    if s.len() != 64 || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "a seed is 64 hex digits (32 bytes), got {} characters",
            s.chars().count()
        ));
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// 32 bytes from the operating system's random source.
pub fn random_bytes() -> [u8; 32] {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the operating system's random source is available");
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::Rules;

    /// The worked example of `docs/protocol.md`.
    #[test]
    fn worked_example() {
        let server: [u8; 32] = std::array::from_fn(|i| i as u8);
        let c0: [u8; 32] = [0x11; 32];
        let seeds = [Some(c0), None];
        let commit = to_hex(&commitment(&server));
        let ds = deal_seed(&server, &seeds);
        let d = deal(&ds, 1, &Rules::default(), true);
        assert_eq!(
            commit,
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        assert_eq!(
            ds.to_hex(),
            "8d598f90682132e3f4dec00f65a3f85768e407305dcfea9f78ab5569bebdca58"
        );
        assert_eq!(
            d.to_text(),
            "4-1 1-1 6-0 1-0 4-3 3-2 4-0 / 5-4 5-0 3-1 6-2 0-0 2-0 5-3 / \
             6-4 5-1 4-2 4-4 6-1 3-3 2-2 6-6 3-0 5-5 5-2 2-1 6-3 6-5"
        );
        // The hashed message, spelled out byte by byte as the document does.
        let mut msg = b"fiveup-deal-v1".to_vec();
        msg.extend_from_slice(&server);
        msg.push(2);
        msg.push(1);
        msg.extend_from_slice(&c0);
        msg.push(0);
        assert_eq!(msg.len(), 14 + 32 + 1 + 33 + 1);
        assert_eq!(sha256(&msg), ds.0);
    }

    #[test]
    fn hex_round_trip_and_errors() {
        let b = random_bytes();
        assert_eq!(parse_seed_hex(&to_hex(&b)).unwrap(), b);
        assert!(parse_seed_hex("abc").is_err());
        assert!(parse_seed_hex(&"g".repeat(64)).is_err());
    }
}
