//! The game filter's options, flattened into every command that selects games.

use clap::{Args, ValueEnum};
use kifudex::query::GameFilter;
use kifudex::store::Side;

/// The side a player had.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    Sente,
    Gote,
}

#[derive(Args, Debug, Default, Clone)]
#[command(next_help_heading = "Game filter")]
pub struct FilterArgs {
    /// A player on either side (part of the name; width, kana, 旧字体 and titles don't matter).
    #[arg(long)]
    pub player: Option<String>,
    /// With --player: the side the player had; with --castle or --strategy, the side that
    /// played it.
    #[arg(long = "as", value_name = "SIDE")]
    pub side: Option<SideArg>,
    /// The player with the first move (先手, or 下手 in a handicap game).
    #[arg(long)]
    pub sente: Option<String>,
    /// The other player (後手 / 上手).
    #[arg(long)]
    pub gote: Option<String>,
    /// With --player: only the games between the player and this one.
    #[arg(long, value_name = "PLAYER")]
    pub vs: Option<String>,
    /// Part of the event (棋戦) name.
    #[arg(long)]
    pub event: Option<String>,
    /// The opening (戦型): a known name (any spelling) matches the header's or the recognised
    /// opening at any level (振り飛車 finds 四間飛車 games); other text, part of the header's.
    #[arg(long)]
    pub opening: Option<String>,
    /// A castle (囲い) recognised from the moves, at any level (美濃囲い finds 銀冠).
    #[arg(long)]
    pub castle: Option<String>,
    /// A strategy (戦法) recognised from the moves, at any level (振り飛車 finds 石田流).
    #[arg(long)]
    pub strategy: Option<String>,
    /// Games on or after this date: YYYY, YYYY-MM or YYYY-MM-DD.
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Games on or before this date (2020-06 takes all of June).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// sente, gote, draw (先手, 後手, 引き分け), or player: the --player won.
    #[arg(long)]
    pub winner: Option<String>,
    /// A handicap: 平手, 香落ち, 角落ち, 二枚落ち ... (part of a name takes every match).
    #[arg(long)]
    pub handicap: Option<String>,
    /// At least this many moves.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u32>,
    /// At most this many moves.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// How the game ended: resign, repetition, impasse, time_up, abort ... (or 投了, 千日手 ...).
    #[arg(long, value_name = "END")]
    pub terminal: Option<String>,
    /// The file it was read from, as given to import: a glob (`*`, `?`, `[...]`).
    #[arg(long, value_name = "GLOB")]
    pub source: Option<String>,
    /// Games whose comments, headers or names match this text query (as `kifudex text`).
    #[arg(long, value_name = "QUERY")]
    pub text: Option<String>,
}

impl FilterArgs {
    pub fn filter(&self) -> GameFilter {
        GameFilter {
            player: self.player.clone(),
            side: self.side.map(|s| match s {
                SideArg::Sente => Side::Sente,
                SideArg::Gote => Side::Gote,
            }),
            sente: self.sente.clone(),
            gote: self.gote.clone(),
            vs: self.vs.clone(),
            event: self.event.clone(),
            opening: self.opening.clone(),
            castle: self.castle.clone(),
            strategy: self.strategy.clone(),
            since: self.since.clone(),
            until: self.until.clone(),
            winner: self.winner.clone(),
            handicap: self.handicap.clone(),
            min_plies: self.min_plies,
            max_plies: self.max_plies,
            terminal: self.terminal.clone(),
            source: self.source.clone(),
            text: self.text.clone(),
        }
    }
}
