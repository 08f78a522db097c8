//! `fiveup admin`: what only the operator does, on the server's machine, against its database
//! (never through the web): granting and revoking the moderator role.

/// Options of `fiveup admin`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub what: What,
}

/// The operator's commands.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Make a registered account a moderator: they see the moderation page and act on reports.
    GrantModerator(Target),
    /// Take the moderator role back.
    RevokeModerator(Target),
    /// List the moderators.
    Moderators(Database),
}

/// The account and the database.
#[derive(Debug, clap::Args)]
pub struct Target {
    /// The account's user name (the one they log in with) or the name shown at tables.
    pub name: String,
    /// The server's database, as given to `fiveup serve`: an SQLite file, or a `sqlite:` or
    /// `postgres://` URL.
    #[arg(long, default_value = "fiveup.db")]
    pub database: String,
}

/// The database alone.
#[derive(Debug, clap::Args)]
pub struct Database {
    /// The server's database, as given to `fiveup serve`.
    #[arg(long, default_value = "fiveup.db")]
    pub database: String,
}

/// Run `fiveup admin`.
pub fn run(a: &Args) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        match &a.what {
            What::GrantModerator(t) | What::RevokeModerator(t) => {
                let on = matches!(a.what, What::GrantModerator(_));
                let db = fiveup_server::store::db::Db::connect(&t.database).await?;
                let (id, name) = fiveup_server::moderation::set_moderator(&db, &t.name, on).await?;
                if on {
                    crate::outln!("{name} (id {id}) is a moderator: the Moderation page is in their menu from their next page load");
                } else {
                    crate::outln!("{name} (id {id}) is no longer a moderator");
                }
                Ok(())
            }
            What::Moderators(d) => {
                let db = fiveup_server::store::db::Db::connect(&d.database).await?;
                let list = fiveup_server::moderation::moderators(&db).await?;
                if list.is_empty() {
                    crate::outln!("no moderators (grant one with `fiveup admin grant-moderator NAME`)");
                }
                for (id, name) in list {
                    crate::outln!("{name} (id {id})");
                }
                Ok(())
            }
        }
    })
}
