//! The game filter's fields, declared once: the CLI's flags, the API's parameters and the
//! text query's `key:value` words are all made from [`FIELDS`].

/// One field of the game filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Player,
    As,
    Sente,
    Gote,
    Vs,
    Event,
    Opening,
    OpeningFrom,
    Castle,
    Strategy,
    Since,
    Until,
    Winner,
    Handicap,
    MinPlies,
    MaxPlies,
    Terminal,
    Source,
    Text,
    Evaluated,
    Swing,
    EvalAt,
}

/// What a field is called where, what its value is and what it does.
#[derive(Debug)]
pub struct FieldDef {
    pub field: Field,
    /// The CLI flag without its dashes, also the key of a text query (`min-plies`).
    pub flag: &'static str,
    /// The API's parameter (`min_plies`).
    pub param: &'static str,
    /// The value's placeholder in help (`DATE`).
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// Whether a text query may hold the field as `key:value`. The event, the opening and the
    /// names are the text index's own fields there (`opening:四間飛車` searches the index).
    pub in_text: bool,
}

/// How the people who give a field call it: error messages use the caller's words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Words {
    /// `--min-plies`
    Cli,
    /// `min_plies`
    Api,
    /// `min-plies:`
    Text,
}

#[rustfmt::skip]
pub static FIELDS: &[FieldDef] = &[
    FieldDef { field: Field::Player, flag: "player", param: "player", value_name: "NAME", in_text: true,
        help: "A player on either side (part of the name; width, kana, 旧字体 and titles don't matter)" },
    FieldDef { field: Field::As, flag: "as", param: "as", value_name: "SIDE", in_text: true,
        help: "sente or gote (先手, 後手): with --player, the side the player had; with --castle or --strategy, the side that played it" },
    FieldDef { field: Field::Sente, flag: "sente", param: "sente", value_name: "NAME", in_text: true,
        help: "The player with the first move (先手, or 下手 in a handicap game)" },
    FieldDef { field: Field::Gote, flag: "gote", param: "gote", value_name: "NAME", in_text: true,
        help: "The other player (後手 / 上手)" },
    FieldDef { field: Field::Vs, flag: "vs", param: "vs", value_name: "PLAYER", in_text: true,
        help: "With --player: only the games between the player and this one" },
    FieldDef { field: Field::Event, flag: "event", param: "event", value_name: "TEXT", in_text: false,
        help: "Part of the event (棋戦) name" },
    FieldDef { field: Field::Opening, flag: "opening", param: "opening", value_name: "NAME", in_text: false,
        help: "The game's opening (戦型): a known name (any spelling, or the start of one or several: 相 is 相掛かり, 相振り飛車 …) matches the game's label at any level (振り飛車 finds 四間飛車 games); other text, part of the header's" },
    FieldDef { field: Field::OpeningFrom, flag: "opening-from", param: "opening_from", value_name: "SOURCE", in_text: false,
        help: "Where --opening looks: header (the record's 戦型), moves (recognised), or either (the header's, else the recognised; the default)" },
    FieldDef { field: Field::Castle, flag: "castle", param: "castle", value_name: "NAME", in_text: false,
        help: "A castle (囲い) recognised from the moves, at any level (美濃囲い finds 銀冠)" },
    FieldDef { field: Field::Strategy, flag: "strategy", param: "strategy", value_name: "NAME", in_text: false,
        help: "A strategy (戦法) recognised from the moves, at any level (振り飛車 finds 石田流)" },
    FieldDef { field: Field::Since, flag: "since", param: "since", value_name: "DATE", in_text: true,
        help: "Games on or after this date: YYYY, YYYY-MM or YYYY-MM-DD" },
    FieldDef { field: Field::Until, flag: "until", param: "until", value_name: "DATE", in_text: true,
        help: "Games on or before this date (2020-06 takes all of June)" },
    FieldDef { field: Field::Winner, flag: "winner", param: "winner", value_name: "WHO", in_text: true,
        help: "sente, gote, draw (先手, 後手, 引き分け), or player: the --player won" },
    FieldDef { field: Field::Handicap, flag: "handicap", param: "handicap", value_name: "NAME", in_text: true,
        help: "A handicap: 平手, 香落ち, 角落ち, 二枚落ち ... (part of a name takes every match)" },
    FieldDef { field: Field::MinPlies, flag: "min-plies", param: "min_plies", value_name: "N", in_text: true,
        help: "At least this many moves" },
    FieldDef { field: Field::MaxPlies, flag: "max-plies", param: "max_plies", value_name: "N", in_text: true,
        help: "At most this many moves" },
    FieldDef { field: Field::Terminal, flag: "terminal", param: "terminal", value_name: "END", in_text: true,
        help: "How the game ended: resign, repetition, impasse, time_up, abort ... (or 投了, 千日手 ...)" },
    FieldDef { field: Field::Source, flag: "source", param: "source", value_name: "GLOB", in_text: true,
        help: "The file it was read from, as given to import: a glob (`*`, `?`, `[...]`)" },
    FieldDef { field: Field::Text, flag: "text", param: "text", value_name: "QUERY", in_text: false,
        help: "Games whose comments, headers or names match this text query (as `kifudex text`)" },
    FieldDef { field: Field::Evaluated, flag: "evaluated", param: "evaluated", value_name: "YES|NO", in_text: true,
        help: "Games with evaluations (their records' engine comments, or `kifudex analyse`), or without" },
    FieldDef { field: Field::Swing, flag: "swing", param: "swing", value_name: "N", in_text: true,
        help: "Games decided by a single swing of at least N: the loser's one move after which the winner was ahead for good" },
    FieldDef { field: Field::EvalAt, flag: "eval-at", param: "eval_at", value_name: "PLY:LOW..HIGH", in_text: true,
        help: "The evaluation (sente's view) after PLY moves in a range: 40:-300..300, 60:1000.. (a bound may be left out; mates count ±30000)" },
];

impl Field {
    /// The field's declaration.
    pub fn def(self) -> &'static FieldDef {
        FIELDS
            .iter()
            .find(|d| d.field == self)
            .expect("every field is declared in FIELDS")
    }

    /// The field as `words` call it: `--min-plies`, `min_plies` or `min-plies:`.
    pub fn name(self, words: Words) -> String {
        let d = self.def();
        match words {
            Words::Cli => format!("--{}", d.flag),
            Words::Api => d.param.to_string(),
            Words::Text => format!("{}:", d.flag),
        }
    }

    /// The field a text query's key names (its flag, or its API spelling).
    pub fn from_text_key(key: &str) -> Option<Field> {
        FIELDS
            .iter()
            .find(|d| d.in_text && (d.flag == key || d.param == key))
            .map(|d| d.field)
    }

    /// The field an API parameter names.
    pub fn from_param(param: &str) -> Option<Field> {
        FIELDS.iter().find(|d| d.param == param).map(|d| d.field)
    }
}
