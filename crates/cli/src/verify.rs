//! `fiveup verify`: re-derive every deal of a game record from its revealed seeds.

use fiveup_server::games::verify;

/// Options of `fiveup verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record file (text or JSON), as served by `fiveup serve` at
    /// `/api/games/{id}/record.txt`.
    pub file: std::path::PathBuf,
}

/// Run `fiveup verify`: succeeds only when every hand checks out.
pub fn run(a: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| format!("cannot read {}: {e}", a.file.display()))?;
    let report = verify(&text);
    if let Some(e) = &report.error {
        return Err(format!("{}: {e}", a.file.display()));
    }
    for h in &report.hands {
        crate::outln!(
            "hand {}: {} {}",
            h.hand,
            if h.ok { "ok" } else { "FAILED" },
            h.message
        );
    }
    if report.ok {
        crate::outln!(
            "every deal ({} hands) matches its published commitment and seeds",
            report.hands.len()
        );
        Ok(())
    } else {
        let bad = report.hands.iter().filter(|h| !h.ok).count();
        Err(format!(
            "{bad} of {} hands do not verify",
            report.hands.len()
        ))
    }
}
