//! The game filter's options, flattened into every command that selects games: made from the
//! one declaration of the filter's fields (`kifudex::query::FIELDS`), read into their types
//! when a command starts.

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use kifudex::query::{FIELDS, GameFilter, QueryError};

/// What the user gave of the game filter, field by field, as typed.
#[derive(Debug, Default, Clone)]
pub struct FilterArgs {
    given: Vec<(kifudex::query::Field, String)>,
}

impl FilterArgs {
    /// The filter, every value read into its type and the whole checked; an error names the
    /// flag and is a usage error.
    pub fn filter(&self) -> Result<GameFilter, QueryError> {
        let f = self.typed()?;
        f.check()?;
        // How a field was read, when it was not read as a name (stderr: not in the answer's rows).
        for note in f.notes(kifudex::query::Words::Cli) {
            eprintln!("kifudex: note: {note}");
        }
        Ok(f)
    }

    /// The filter with every value read into its type, not yet checked as a whole: for a
    /// command that adds a field of its own first (`players NAME` sets the player).
    pub fn typed(&self) -> Result<GameFilter, QueryError> {
        let mut f = GameFilter::default();
        for (field, value) in &self.given {
            f.set(*field, value)?;
        }
        Ok(f)
    }
}

impl FromArgMatches for FilterArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = FilterArgs::default();
        args.update_from_arg_matches(m)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for d in FIELDS {
            if let Some(v) = m.get_one::<String>(d.param) {
                self.given.retain(|(f, _)| *f != d.field);
                self.given.push((d.field, v.clone()));
            }
        }
        Ok(())
    }
}

impl Args for FilterArgs {
    fn augment_args(cmd: Command) -> Command {
        // The command's own options that follow are under no heading, as before the filter
        // (no command of kifudex puts its options under one).
        let cmd = cmd.next_help_heading("Game filter");
        FIELDS
            .iter()
            .fold(cmd, |cmd, d| {
                cmd.arg(
                    Arg::new(d.param)
                        .long(d.flag)
                        .value_name(d.value_name)
                        .help(d.help)
                        .num_args(1),
                )
            })
            .next_help_heading(None::<&str>)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
