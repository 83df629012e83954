//! The scene as an SVG document: the kanji stay text, for the viewer's own font.

use std::fmt::Write;

use super::scene::{Anchor, Group, Item, Kind, Scene, Shape, TextStyle};

const FONTS: &str = "'Hiragino Mincho ProN','Yu Mincho','Noto Serif CJK JP','IPAMincho','IPAexMincho',\
'Noto Sans CJK JP','IPAGothic',serif";

pub fn write(scene: &Scene) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let (w, h) = (scene.width, scene.height);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         width=\"{w}\" height=\"{h}\" font-family=\"{FONTS}\" \
         data-sfen=\"{}\">\n<title>{}</title>\n",
        escape(&scene.sfen),
        escape(&scene.title)
    );
    for item in &scene.items {
        write_item(&mut out, item);
    }
    out.push_str("</svg>\n");
    out
}

fn write_item(out: &mut String, item: &Item) {
    match item {
        Item::Shape(s) => write_shape(out, s),
        Item::Group(g) => write_group(out, g),
    }
}

fn write_group(out: &mut String, g: &Group) {
    out.push_str("<g");
    tags(out, &g.tags);
    if let Some(style) = g.style {
        let _ = write!(
            out,
            " font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\"",
            style.size,
            anchor(style.anchor),
            style.fill
        );
    }
    if let Some((cx, cy)) = g.turn {
        let _ = write!(out, " transform=\"rotate(180 {cx} {cy})\"");
    }
    out.push('>');
    if g.break_open {
        out.push('\n');
    }
    for item in &g.items {
        write_item(out, item);
    }
    out.push_str("</g>\n");
}

fn write_shape(out: &mut String, s: &Shape) {
    match &s.kind {
        Kind::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        } => {
            out.push_str("<rect");
            tags(out, &s.tags);
            let _ = write!(
                out,
                " x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\"",
                fill.color
            );
            if let Some(o) = fill.opacity {
                let _ = write!(out, " fill-opacity=\"{o}\"");
            }
            if let Some(st) = stroke {
                let _ = write!(out, " stroke=\"{}\"", st.color);
                if let Some(w) = st.width {
                    let _ = write!(out, " stroke-width=\"{w}\"");
                }
            }
            out.push_str("/>");
        }
        Kind::Line { from, to, stroke } => {
            out.push_str("<line");
            tags(out, &s.tags);
            let _ = write!(
                out,
                " x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"",
                from.0, from.1, to.0, to.1, stroke.color
            );
            if let Some(w) = stroke.width {
                let _ = write!(out, " stroke-width=\"{w}\"");
            }
            out.push_str("/>");
        }
        Kind::Circle { centre, r, fill } => {
            out.push_str("<circle");
            tags(out, &s.tags);
            let _ = write!(
                out,
                " cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{fill}\"/>",
                centre.0, centre.1
            );
        }
        Kind::Polygon {
            points,
            fill,
            stroke,
        } => {
            out.push_str("<path");
            tags(out, &s.tags);
            out.push_str(" d=\"");
            for (i, (x, y)) in points.iter().enumerate() {
                let _ = write!(out, "{}{x} {y}", if i == 0 { "M" } else { " L" });
            }
            let _ = write!(out, " Z\" fill=\"{fill}\" stroke=\"{}\"", stroke.color);
            if let Some(w) = stroke.width {
                let _ = write!(out, " stroke-width=\"{w}\"");
            }
            out.push_str("/>");
        }
        Kind::Text { at, style, text } => {
            out.push_str("<text");
            tags(out, &s.tags);
            let _ = write!(out, " x=\"{}\" y=\"{}\"", at.0, at.1);
            if let Some(TextStyle {
                size,
                anchor: a,
                fill,
            }) = style
            {
                if *a != Anchor::Start {
                    let _ = write!(out, " text-anchor=\"{}\"", anchor(*a));
                }
                let _ = write!(out, " font-size=\"{size}\" fill=\"{fill}\"");
            }
            let _ = write!(out, ">{}</text>", escape(text));
        }
    }
    if s.break_after {
        out.push('\n');
    }
}

fn tags(out: &mut String, tags: &[(&'static str, String)]) {
    for (k, v) in tags {
        let _ = write!(out, " {k}=\"{}\"", escape(v));
    }
}

fn anchor(a: Anchor) -> &'static str {
    match a {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    }
}

/// `&`, `<`, `>` and `"` as XML entities.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}
