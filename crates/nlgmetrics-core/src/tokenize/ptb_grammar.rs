//! The rules of the CoreNLP 3.4.1 PTB lexer (its JFlex grammar, `PTBLexer.flex`), in order,
//! as regular expressions over UTF-16 code units, with the options pycocoevalcap runs
//! (`-preserveLines`: newlines are tokens; otherwise the defaults: PTB3 escaping,
//! the traditional (not strict) Treebank 3 state, assimilations split, untokenizable
//! characters deleted).
//!
//! The grammar is `%caseless`: a literal string matches in any ASCII case, a character
//! class only as written (which is why `[M]ass` does not match `mass`). Macros are named
//! as in the grammar.

use super::ptb_chars::{DIGIT, JDIGIT, JLETTER, LETTER, UPPER};
use super::ptb_dfa::{Re, Set};

/// What a rule does with its match (`yytext`, the main part of the match).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The text itself.
    Text,
    /// The first `len - n` units (the last `n` are scanned again).
    Pushback(usize),
    /// SGML: spaces become no-break spaces.
    Sgml,
    /// A fixed token.
    Fixed(&'static str),
    /// `&amp;` becomes `&`.
    Amp,
    /// Soft hyphens removed (`-` if nothing is left).
    NoSoftHyphens,
    /// Quotes in LaTeX style; `true` for a quote that probably opens.
    Quote(bool),
    /// A fraction: spaces become no-break spaces.
    Frac,
    /// `¼ ½ ¾ ⅓ ⅔` spelled with digits.
    Frac2,
    /// Currency signs normalised (`¢` cents, `£` #, other currencies `$`).
    Currency,
    /// An acronym ending a sentence: `I.` gives `I` then `.`; `U.S.` gives `U.S.` then `.`.
    AcronymEnd,
    /// An abbreviation ending a sentence: the text, then its period again.
    AbbrevEnd,
    /// A phone number: spaces become no-break spaces, parentheses `-LRB-`/`-RRB-`.
    Phone,
    /// Parentheses become `-LRB-`/`-RRB-` (smileys).
    Parens,
    /// A run of hyphens: `--` for three or four, else the text.
    Hyphens,
    /// An ellipsis: `...`.
    Ellipsis,
    /// Nothing (spaces, invisible and untokenizable characters).
    Skip,
    /// A line end.
    Newline,
}

/// One rule: the main expression, its trailing context (`main/context`), its action.
pub struct Rule {
    pub main: Re,
    pub context: Option<Re>,
    pub act: Act,
}

fn set(s: &Set) -> Re {
    Re::Set(s.clone())
}

fn cls(chars: &str) -> Re {
    Re::Set(Set::chars(chars))
}

fn ranges(rs: &[(u16, u16)]) -> Re {
    Re::Set(Set::ranges(rs))
}

/// A negated class of the listed characters.
fn not(chars: &str) -> Re {
    Re::Set(Set::chars(chars).negate())
}

fn table(t: &[(u16, u16)]) -> Set {
    Set::ranges(t)
}

/// A literal string under `%caseless`: a letter matches every character of its case
/// class, which for ASCII letters adds the Kelvin sign to `k`, the long s to `s`, and the
/// dotted and dotless I to `i` (the jar matches `\u{212A}y.`, `\u{17F}q.` and `\u{131}nc.`
/// as the abbreviations `Ky.`, `sq.` and `Inc.`).
fn lit(s: &str) -> Re {
    Re::Seq(
        s.encode_utf16()
            .map(|u| {
                let c = u as u8 as char;
                if u < 0x80 && c.is_ascii_alphabetic() {
                    let extra = match c.to_ascii_lowercase() {
                        'k' => "\u{212A}",
                        's' => "\u{17F}",
                        'i' => "\u{130}\u{131}",
                        _ => "",
                    };
                    cls(&format!("{}{}{extra}", c.to_ascii_lowercase(), c.to_ascii_uppercase()))
                } else {
                    Re::Set(Set::ranges(&[(u, u)]))
                }
            })
            .collect(),
    )
}

/// Alternatives of literal strings; `[X]` spells a one-character class (exact case).
fn words(list: &[&str]) -> Re {
    Re::Alt(
        list.iter()
            .map(|w| match w.strip_prefix('[') {
                Some(rest) => {
                    let (c, tail) = rest.split_at(1);
                    Re::Seq(vec![cls(c), lit(&tail[1..])])
                }
                None => lit(w),
            })
            .collect(),
    )
}

fn seq(v: Vec<Re>) -> Re {
    Re::Seq(v)
}

fn alt(v: Vec<Re>) -> Re {
    Re::Alt(v)
}

fn ascii_letter() -> Re {
    ranges(&[(0x41, 0x5A), (0x61, 0x7A)])
}

fn ascii_alnum() -> Re {
    ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)])
}

fn ascii_digit() -> Re {
    ranges(&[(0x30, 0x39)])
}

/// The macros the rules use.
pub struct Macros {
    pub sgml: Re,
    pub space: Re,
    pub newline: Re,
    pub spacenl: Re,
    pub letter: Re,
    pub digit: Re,
    pub jletter: Re,
    pub jdigit: Re,
    pub apos: Re,
    pub aposetc: Re,
    pub acro: Re,
    pub abbrev1: Re,
    pub abbrev4: Re,
    pub word: Re,
    pub redaux: Re,
    pub sredaux: Re,
    pub hthing: Re,
    pub thing: Re,
    pub thinga: Re,
    pub insentp: Re,
}

pub fn macros() -> Macros {
    let letter_chars = table(&LETTER);
    let digit = set(&table(&DIGIT));
    let jletter = set(&table(&JLETTER));
    let jdigit = set(&table(&JDIGIT));
    let name_char = || ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0x5F, 0x5F), (0x3A, 0x3A), (0x2E, 0x2E), (0x2D, 0x2D)]);
    let sp = || cls(" ").star();
    let sgml = seq(vec![
        cls("<"),
        alt(vec![
            seq(vec![cls("!?"), ranges(&[(0x41, 0x5A), (0x61, 0x7A), (0x2D, 0x2D)]), not(">\r\n").star()]),
            seq(vec![
                ascii_letter(),
                name_char().star(),
                seq(vec![
                    cls(" ").plus(),
                    alt(vec![
                        seq(vec![ascii_letter(), name_char().star()]),
                        seq(vec![
                            ascii_letter(),
                            name_char().star(),
                            sp(),
                            cls("="),
                            sp(),
                            alt(vec![
                                seq(vec![cls("'"), not("'").star(), cls("'")]),
                                seq(vec![cls("\""), not("\"").star(), cls("\"")]),
                            ]),
                        ]),
                    ]),
                ])
                .star(),
                sp(),
                cls("/").opt(),
            ]),
            seq(vec![cls("/"), ascii_letter(), name_char().star()]),
        ]),
        sp(),
        cls(">"),
    ]);
    let space = cls(" \t\u{A0}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{3000}");
    let newline = alt(vec![cls("\r"), seq(vec![cls("\r").opt(), cls("\n")]), cls("\u{2028}\u{2029}\u{0B}\u{0C}\u{85}")]);
    let spacenl = alt(vec![space.clone(), newline.clone()]);
    let splet = seq(vec![lit("&"), cls("aeiouAEIOU"), words(&["acute", "grave", "uml"]), lit(";")]);
    let letter = alt(vec![set(&letter_chars), splet]);
    let letter_or_digit = || alt(vec![letter.clone(), digit.clone()]);
    let word = seq(vec![
        letter.clone(),
        letter_or_digit().star(),
        seq(vec![cls(".!?"), letter.clone(), letter_or_digit().star()]).star(),
    ]);
    let apos = alt(vec![cls("'\u{92}\u{2019}"), lit("&apos;")]);
    let aposetc = alt(vec![apos.clone(), cls("`\u{91}\u{2018}\u{201B}")]);
    let java_alnum = || alt(vec![jletter.clone(), jdigit.clone()]);
    let hyphen = cls("-_\u{58A}\u{2010}\u{2011}");
    let d_apos = || seq(vec![cls("dDoOlL"), aposetc.clone(), java_alnum()]).opt();
    let thing = seq(vec![
        d_apos(),
        java_alnum().plus(),
        seq(vec![hyphen, d_apos(), java_alnum().plus()]).star(),
    ]);
    let upper_ascii = || ranges(&[(0x41, 0x5A)]);
    let thinga = seq(vec![
        upper_ascii().plus(),
        seq(vec![alt(vec![cls("+&"), lit("&amp;")]), upper_ascii().plus()]).plus(),
    ]);
    let acro_special = || {
        alt(vec![
            seq(vec![words(&["Canada", "Sino", "Korean", "EU", "Japan", "non"]), lit("-U.S")]),
            seq(vec![lit("U.S.-"), words(&["U.K", "U.S.S.R"])]),
        ])
    };
    let dot_letter = || seq(vec![cls("."), ascii_letter()]);
    let acro = alt(vec![seq(vec![ascii_letter(), dot_letter().star()]), acro_special()]);
    let acro2 = alt(vec![seq(vec![ascii_letter(), dot_letter().plus()]), acro_special()]);
    let hthing = seq(vec![
        ascii_alnum(),
        ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0x2E, 0x2E), (0x2C, 0x2C), (0xAD, 0xAD)]).star(),
        seq(vec![
            cls("-"),
            alt(vec![
                ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0xAD, 0xAD)]).plus(),
                seq(vec![acro2, cls(".")]),
            ]),
        ])
        .plus(),
    ]);
    let redaux = seq(vec![apos.clone(), alt(vec![cls("msdMSD"), lit("re"), lit("ve"), lit("ll")])]);
    let sredaux = seq(vec![lit("n"), aposetc.clone(), lit("t")]);
    let abmonth = ["Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec"];
    let abdays = ["Mon", "Tue", "Tues", "Wed", "Thu", "Thurs", "Fri"];
    let abstate = [
        "Ala", "Ariz", "[A]z", "[A]rk", "Calif", "Colo", "Conn", "Ct", "Dak", "[D]el", "Fla", "Ga", "[I]ll", "Ind",
        "Kan", "Kans", "Ky", "[L]a", "[M]ass", "Md", "Mich", "Minn", "[M]iss", "Mo", "Mont", "Neb", "Nev", "Okla",
        "[O]re", "[P]a", "Penn", "Tenn", "[T]ex", "Va", "Vt", "[W]ash", "Wis", "Wisc", "Wyo",
    ];
    // `Pp?t[ye]s?`: the `[ye]` class is lower case only.
    let ptys = seq(vec![lit("P"), lit("p").opt(), lit("t"), cls("ye"), lit("s").opt()]);
    let abcomp = alt(vec![
        words(&["Inc", "Co", "Cos", "Corp", "Ltd", "Plc", "Rt", "Bancorp", "Bhd", "Assn", "Univ", "Intl", "Sys"]),
        ptys,
    ]);
    let abnum = ["tel", "est", "ext", "sq"];
    let abptit = ["Jr", "Sr", "Bros", "Ed.D", "Ph.D", "Blvd", "Rd", "Esq"];
    let abbrev1 = seq(vec![
        alt(vec![
            words(&abmonth),
            words(&abdays),
            words(&abstate),
            abcomp,
            words(&abnum),
            words(&abptit),
            words(&["etc", "al", "seq", "Bldg"]),
        ]),
        cls("."),
    ]);
    let abtitle = words(&[
        "Mr", "Mrs", "Ms", "[M]iss", "Dr", "Drs", "Prof", "Profs", "Sen", "Sens", "Rep", "Reps", "Atty", "Attys", "Lt",
        "Col", "Gen", "Messrs", "Gov", "Govs", "Adm", "Rev", "Maj", "Sgt", "Cpl", "Pvt", "Capt", "St", "Ste", "Ave",
        "Pres", "Lieut", "Hon", "Brig", "Cmdr", "Comdr", "Pfc", "Spc", "Supt", "Supts", "Det", "Mt", "Ft", "Adj", "Adv",
        "Asst", "Assoc", "Ens", "Insp", "Mlle", "Mme", "Msgr", "Sfc",
    ]);
    // `M[ft]g`: the `[ft]` class is lower case only.
    let abcomp2 = alt(vec![words(&["Invt", "Elec", "Natl", "Dept"]), seq(vec![lit("M"), cls("ft"), lit("g")])]);
    let abbrev4 = alt(vec![
        abtitle,
        words(&["vs", "Alex", "Wm", "Jos", "Cie", "a.k.a", "cf", "TREAS", "Ph"]),
        acro.clone(),
        abcomp2,
    ]);
    Macros {
        sgml,
        space,
        newline,
        spacenl,
        letter,
        digit,
        jletter,
        jdigit,
        apos,
        aposetc,
        acro,
        abbrev1,
        abbrev4,
        word,
        redaux,
        sredaux,
        hthing,
        thing,
        thinga,
        insentp: cls(",;:\u{3001}"),
    }
}

/// The rules in the grammar's order (the earlier rule wins a tie).
pub fn rules() -> Vec<Rule> {
    let m = macros();
    let Macros { sgml, space, newline, spacenl, letter, digit, jletter, jdigit, apos, aposetc, acro, abbrev1, abbrev4, word, redaux, sredaux, hthing, thing, thinga, insentp } = m;
    let upper = set(&table(&UPPER));
    let r = |main: Re, act: Act| Rule { main, context: None, act };
    let rc = |main: Re, context: Re, act: Act| Rule { main, context: Some(context), act };

    let digits = |a: usize, b: usize| digit.clone().rep(a, b);
    let num = alt(vec![
        digit.clone().plus(),
        seq(vec![digit.clone().star(), seq(vec![cls(".:,\u{AD}\u{66B}\u{66C}"), digit.clone().plus()]).plus()]),
    ]);
    let number = seq(vec![cls("-+").opt(), num]);
    let date = seq(vec![digits(1, 2), cls("-/"), digits(1, 2), cls("-/"), digits(2, 4)]);
    let subsupnum = seq(vec![
        cls("\u{207A}\u{207B}\u{208A}\u{208B}").opt(),
        alt(vec![
            ranges(&[(0x2070, 0x2070), (0xB9, 0xB9), (0xB2, 0xB3), (0x2074, 0x2079)]).plus(),
            ranges(&[(0x2080, 0x2089)]).plus(),
        ]),
    ]);
    let frac = seq(vec![
        seq(vec![digits(1, 4), cls("- \u{A0}")]).opt(),
        digits(1, 4),
        alt(vec![seq(vec![cls("\\").opt(), cls("/")]), cls("\u{2044}")]),
        digits(1, 4),
    ]);
    let frac2 = ranges(&[(0xBC, 0xBE), (0x2153, 0x215E)]);
    let dolsign = alt(vec![seq(vec![ranges(&[(0x41, 0x5A)]).star(), cls("$")]), cls("#")]);
    let dolsign2 = cls("\u{A2}\u{A3}\u{A4}\u{A5}\u{80}\u{20A0}\u{20AC}\u{60B}\u{E3F}\u{20A4}\u{FFE0}\u{FFE1}\u{FFE5}\u{FFE6}");
    let letter_or_digit = || alt(vec![letter.clone(), digit.clone()]);
    let filename_ext = words(&[
        "bat", "bmp", "c", "class", "cgi", "cpp", "dll", "doc", "docx", "exe", "gif", "gz", "h", "htm", "html", "jar",
        "java", "jpeg", "jpg", "mov", "mp3", "pdf", "php", "pl", "png", "ppt", "ps", "py", "sql", "tar", "txt", "wav",
        "x", "xml", "zip",
    ]);
    let filename = seq(vec![
        letter_or_digit().plus(),
        seq(vec![cls("."), letter_or_digit().plus()]).star(),
        seq(vec![cls("."), filename_ext]),
    ]);
    let thing3_part = || seq(vec![ascii_alnum().plus(), seq(vec![cls("-"), ascii_letter().plus()]).rep(0, 2)]);
    let thing3 = seq(vec![thing3_part(), seq(vec![cls("\\").opt(), cls("/"), thing3_part()]).rep(1, 2)]);
    let sword = seq(vec![
        ranges(&[(0x41, 0x5A), (0x61, 0x7A), (0xAD, 0xAD)]).star(),
        ranges(&[(0x41, 0x4D), (0x4F, 0x5A), (0x61, 0x6D), (0x6F, 0x7A)]),
        cls("\u{AD}").star(),
    ]);
    let jl = || jletter.clone();
    let apoword = alt(vec![
        seq(vec![apos.clone(), lit("n"), apos.clone().opt()]),
        seq(vec![cls("lLdDjJ"), apos.clone()]),
        seq(vec![lit("Dunkin"), apos.clone()]),
        seq(vec![lit("somethin"), apos.clone()]),
        seq(vec![lit("ol"), apos.clone()]),
        seq(vec![apos.clone(), lit("em")]),
        seq(vec![
            ranges(&[(0x41, 0x48), (0x4A, 0x58), (0x5A, 0x5A), (0x6E, 0x6E)]),
            aposetc.clone(),
            jl(),
            jl(),
            jl().star(),
        ]),
        seq(vec![apos.clone(), ranges(&[(0x32, 0x39)]), lit("0s")]),
        seq(vec![apos.clone(), lit("til"), lit("l").opt()]),
        seq(vec![jl(), jl().star(), cls("aeiouyAEIOUY"), aposetc.clone(), ranges(&[(0x41, 0x5A), (0x61, 0x61), (0x65, 0x65), (0x69, 0x69), (0x6F, 0x6F), (0x75, 0x75)]), jl().star()]),
        seq(vec![apos.clone(), lit("cause")]),
        seq(vec![lit("cont'd"), lit(".").opt()]),
        words(&["'twas", "nor'easter", "c'mon", "e'er", "s'mores", "ev'ry", "li'l", "nat'l"]),
        seq(vec![lit("O"), aposetc.clone(), lit("o")]),
    ]);
    let apoword2 = seq(vec![lit("y"), apos.clone()]);
    let url_body = || not(" \t\n\u{0C}\r\"<>|(){}");
    let url_end = || not(" \t\n\u{0C}\r\"<>|.!?(){},-");
    let fullurl = seq(vec![lit("http"), lit("s").opt(), lit("://"), url_body().plus(), url_end()]);
    // `[^ \t\n\f\r\"`'<>|.!?(){},-_$]`: `,-_` is the range from `,` to `_`.
    let host_label = Re::Set(Set::chars(" \t\n\u{0C}\r\"`'<>|.!?(){}$").union(&Set::ranges(&[(0x2C, 0x5F)])).negate());
    let likelyurl = seq(vec![
        alt(vec![
            seq(vec![
                lit("www."),
                seq(vec![not(" \t\n\u{0C}\r\"<>|.!?(){},").plus(), cls(".")]).plus(),
                ascii_letter().rep(2, 4),
            ]),
            seq(vec![seq(vec![host_label.plus(), cls(".")]).plus(), words(&["com", "net", "org", "edu"])]),
        ]),
        seq(vec![cls("/"), not(" \t\n\u{0C}\r\"<>|()").plus(), url_end()]).opt(),
    ]);
    let email_part = || not(" \t\n\u{0C}\r\"<>|(){}.\u{A0}");
    let email = seq(vec![
        alt(vec![lit("&lt;"), cls("<")]).opt(),
        ascii_alnum(),
        not(" \t\n\u{0C}\r\"<>|()\u{A0}{}").star(),
        cls("@"),
        seq(vec![email_part().plus(), cls(".")]).star(),
        email_part().plus(),
        alt(vec![lit("&gt;"), cls(">")]).opt(),
    ]);
    let twitter = alt(vec![
        seq(vec![cls("@"), ranges(&[(0x41, 0x5A), (0x61, 0x7A), (0x5F, 0x5F)]), ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0x5F, 0x5F)]).star()]),
        seq(vec![cls("#"), letter.clone().plus()]),
    ]);
    let acronym = seq(vec![acro.clone(), cls(".")]);
    let sentence_starts = words(&[
        "[A]bout", "[A]ccording", "[A]dditionally", "[A]fter", "[A]n", "[A]", "[A]s", "[A]t", "[B]ut", "[E]arlier",
        "[H]e", "[H]er", "[H]ere", "[H]owever", "[I]f", "[I]n", "[I]t", "[L]ast", "[M]any", "[M]ore", "[M]r.",
        "[M]s.", "[N]ow", "[O]nce", "[O]ne", "[O]ther", "[O]ur", "[S]he", "[S]ince", "[S]o", "[S]ome", "[S]uch",
        "[T]hat", "[T]he", "[T]heir", "[T]hen", "[T]here", "[T]hese", "[T]hey", "[T]his", "[W]e", "[W]hen",
        "[W]hile", "[W]hat", "[Y]et", "[Y]ou",
    ]);
    let acronym_context = seq(vec![spacenl.clone().plus(), alt(vec![sentence_starts, sgml.clone()]), spacenl.clone()]);
    let abbrev3 = seq(vec![words(&["ca", "fig", "figs", "prop", "no", "nos", "art", "bldg", "pp", "op"]), cls(".")]);
    let sentend = seq(vec![spacenl.clone(), alt(vec![spacenl.clone(), upper, sgml.clone()])]);
    let d = || ascii_digit();
    let sep = || cls("- \u{A0}");
    let phone = alt(vec![
        seq(vec![
            alt(vec![
                seq(vec![cls("("), d().rep(2, 3), cls(")"), cls(" \u{A0}").opt()]),
                seq(vec![cls("+").rep(1, 2).opt(), seq(vec![d().rep(2, 4), sep()]).opt(), d().rep(2, 4), sep()]),
            ]),
            d().rep(3, 4),
            sep().opt(),
            d().rep(3, 5),
        ]),
        seq(vec![
            seq(vec![cls("+").rep(1, 2).opt(), d().rep(2, 4), cls(".")]).opt(),
            d().rep(2, 4),
            cls("."),
            d().rep(3, 4),
            cls("."),
            d().rep(3, 5),
        ]),
    ]);
    let dblquot = alt(vec![cls("\""), lit("&quot;")]);
    let smiley = seq(vec![cls("<>").opt(), cls(":;="), cls("-o*'").opt(), cls("()DPdpO\\{@|[]")]);
    let asian = cls("^x=~<>");
    let asian_q = cls("-^x=~<>'");
    let asiansmiley = alt(vec![
        seq(vec![asian.clone(), lit(".[^x=~<>]")]),
        seq(vec![asian_q.clone(), cls("_"), asian_q.clone()]),
        seq(vec![cls("("), asian_q.clone(), cls("_.").opt(), asian_q.clone(), cls(")")]),
        seq(vec![cls("("), cls("^x=~<>'"), cls("-"), cls("^x=~<>'`"), cls(")")]),
    ]);
    let hyphens = cls("-").plus();
    let ldots = alt(vec![
        cls(".").rep(3, 5),
        seq(vec![seq(vec![cls("."), cls(" \u{A0}")]).rep(2, 4), cls(".")]),
        cls("\u{85}\u{2026}"),
    ]);
    let fnmarks = alt(vec![cls("@").plus(), cls("#").plus(), cls("_").plus()]);
    let asts = alt(vec![cls("*").plus(), lit("\\*").rep(1, 3)]);
    let quotes = alt(vec![
        apos.clone(),
        lit("''"),
        cls("`\u{2018}\u{2019}\u{201A}\u{201B}\u{201C}\u{201D}\u{91}\u{92}\u{93}\u{94}\u{201E}\u{201F}\u{2039}\u{203A}\u{AB}\u{BB}").rep(1, 2),
    ]);
    let tbspec = alt(vec![
        seq(vec![lit("-"), words(&["RRB", "LRB", "RCB", "LCB", "RSB", "LSB"]), lit("-")]),
        words(&["C.D.s", "pro-", "anti-"]),
        seq(vec![lit("S"), alt(vec![lit("&"), lit("&amp;")]), words(&["P-500", "Ls"])]),
        seq(vec![lit("Cap"), apos.clone(), lit("n")]),
        seq(vec![lit("c"), apos.clone(), lit("est")]),
    ]);
    let tbspec2 = seq(vec![apos.clone(), d(), d()]);
    let miscsymbol = Re::Set(Set::ranges(&[
        (0x2B, 0x2B), (0x25, 0x25), (0x26, 0x26), (0x7E, 0x7E), (0x5E, 0x5E), (0x7C, 0x7C), (0x5C, 0x5C),
        (0xA6, 0xA6), (0xA7, 0xA7), (0xA8, 0xA8), (0xA9, 0xA9), (0xAC, 0xAC), (0xAE, 0xAE), (0xAF, 0xAF),
        (0xB0, 0xBA), (0xD7, 0xD7), (0xF7, 0xF7), (0x387, 0x387), (0x5BE, 0x5BE), (0x5C0, 0x5C0), (0x5C3, 0x5C3),
        (0x5C6, 0x5C6), (0x5F3, 0x5F4), (0x600, 0x603), (0x606, 0x60A), (0x60C, 0x60C), (0x614, 0x614),
        (0x61B, 0x61B), (0x61E, 0x61E), (0x66A, 0x66A), (0x66D, 0x66D), (0x703, 0x70D), (0x7F6, 0x7F8),
        (0x964, 0x965), (0xE4F, 0xE4F), (0x1FBD, 0x1FBD), (0x2016, 0x2017), (0x2020, 0x2023), (0x2030, 0x2038),
        (0x203B, 0x203B), (0x203E, 0x2042), (0x2044, 0x2044), (0x207A, 0x207F), (0x208A, 0x208E), (0x2100, 0x214F),
        (0x2190, 0x21FF), (0x2200, 0x2BFF), (0x3012, 0x3012), (0x30FB, 0x30FB), (0xFF01, 0xFF0F), (0xFF1A, 0xFF20),
        (0xFF3B, 0xFF40), (0xFF5B, 0xFF65),
    ]));
    let not_ascii_letter = || Re::Set(Set::ranges(&[(0x41, 0x5A), (0x61, 0x7A)]).negate());
    let any = || Re::Set(Set::ranges(&[(0, 0xFFFF)]));
    let pt_co = seq(vec![alt(vec![seq(vec![lit("pt"), cls("eyEY")]), lit("co")]), cls(".")]);

    vec![
        r(seq(vec![lit("c"), cls("+"), cls("+")]), Act::Text),
        r(seq(vec![alt(vec![lit("c"), lit("f")]), lit("#")]), Act::Text),
        r(lit("cannot"), Act::Pushback(3)),
        r(lit("'twas"), Act::Pushback(3)),
        r(lit("'tis"), Act::Pushback(2)),
        r(words(&["gonna", "gotta", "lemme", "gimme", "wanna"]), Act::Pushback(2)),
        r(sgml.clone(), Act::Sgml),
        r(alt(vec![seq(vec![lit("&"), words(&["MD", "mdash", "ndash"]), lit(";")]), cls("\u{96}\u{97}\u{2013}\u{2014}\u{2015}")]), Act::Fixed("--")),
        r(lit("&amp;"), Act::Amp),
        r(seq(vec![lit("&"), alt(vec![words(&["HT", "TL", "UR", "LR", "QC", "QL", "QR", "odq", "cdq"]), seq(vec![lit("#"), d().plus()])]), lit(";")]), Act::Text),
        rc(word.clone(), redaux.clone(), Act::NoSoftHyphens),
        rc(sword, sredaux.clone(), Act::NoSoftHyphens),
        r(word.clone(), Act::NoSoftHyphens),
        r(apoword, Act::Text),
        rc(apoword2, jletter.clone(), Act::Text),
        r(fullurl, Act::Text),
        r(likelyurl, Act::Text),
        r(email, Act::Text),
        r(twitter, Act::Text),
        rc(redaux.clone(), not_ascii_letter(), Act::Quote(false)),
        rc(sredaux.clone(), not_ascii_letter(), Act::Quote(false)),
        r(date, Act::Text),
        r(number, Act::NoSoftHyphens),
        r(subsupnum, Act::Text),
        r(frac, Act::Frac),
        r(frac2, Act::Frac2),
        r(tbspec, Act::Amp),
        r(thing3, Act::Text),
        r(dolsign, Act::Text),
        r(dolsign2, Act::Currency),
        rc(acronym, acronym_context, Act::AcronymEnd),
        rc(abbrev3, seq(vec![spacenl.clone().opt(), jdigit.clone()]), Act::Text),
        rc(pt_co, seq(vec![space.clone(), words(&["ltd", "lim"])]), Act::Text),
        rc(abbrev1.clone(), sentend, Act::AbbrevEnd),
        rc(abbrev1.clone(), seq(vec![any(), any()]), Act::Text),
        r(abbrev1, Act::AbbrevEnd),
        r(seq(vec![abbrev4.clone(), cls(".")]), Act::Text),
        rc(abbrev4, space.clone(), Act::Text),
        rc(acro, spacenl.clone(), Act::Text),
        rc(tbspec2, spacenl.clone(), Act::Text),
        rc(filename, alt(vec![spacenl, cls(".?!,")]), Act::Text),
        rc(seq(vec![word, cls(".")]), insentp.clone(), Act::NoSoftHyphens),
        r(phone, Act::Phone),
        rc(dblquot.clone(), ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0x24, 0x24)]), Act::Quote(true)),
        r(dblquot, Act::Quote(false)),
        r(cls("\u{7F}"), Act::Skip),
        r(alt(vec![cls("<"), lit("&lt;")]), Act::Fixed("<")),
        r(alt(vec![cls(">"), lit("&gt;")]), Act::Fixed(">")),
        rc(smiley, Re::Set(Set::ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)]).negate()), Act::Parens),
        r(asiansmiley, Act::Parens),
        r(cls("{"), Act::Fixed("-LCB-")),
        r(cls("}"), Act::Fixed("-RCB-")),
        r(cls("["), Act::Fixed("-LSB-")),
        r(cls("]"), Act::Fixed("-RSB-")),
        r(cls("("), Act::Fixed("-LRB-")),
        r(cls(")"), Act::Fixed("-RRB-")),
        r(hyphens, Act::Hyphens),
        r(ldots, Act::Ellipsis),
        r(fnmarks, Act::Text),
        r(asts, Act::Text),
        r(insentp.clone(), Act::Text),
        r(cls("?!").plus(), Act::Text),
        r(cls(".\u{A1}\u{BF}\u{37E}\u{589}\u{61F}\u{6D4}\u{700}\u{701}\u{702}\u{7FA}\u{3002}"), Act::Text),
        r(cls("="), Act::Text),
        r(cls("/"), Act::Text),
        rc(seq(vec![hthing.clone(), cls(".")]), insentp.clone(), Act::NoSoftHyphens),
        r(hthing, Act::NoSoftHyphens),
        rc(seq(vec![thing.clone(), cls(".")]), insentp.clone(), Act::Text),
        r(thing, Act::Text),
        rc(seq(vec![thinga.clone(), cls(".")]), insentp, Act::Amp),
        r(thinga, Act::Amp),
        rc(cls("'"), seq(vec![ascii_letter(), not(" \t\n\r\u{A0}")]), Act::Quote(true)),
        r(redaux, Act::Quote(false)),
        r(sredaux, Act::Quote(false)),
        r(quotes, Act::Quote(false)),
        r(alt(vec![lit("<<"), lit(">>")]), Act::Text),
        r(miscsymbol, Act::Text),
        r(alt(vec![cls("\0"), space.plus(), cls("\u{200B}\u{200E}\u{200F}\u{FEFF}")]), Act::Skip),
        r(newline, Act::Newline),
        r(lit("&nbsp;"), Act::Skip),
        r(not("\n"), Act::Skip),
    ]
}
