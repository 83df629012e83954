//! The scene as a PNG image, drawn here: each shape's outline (a glyph's from the font) is
//! filled by an anti-aliasing coverage rasterizer and blended over the picture, and the
//! pixels are written as an RGB PNG. The image is [`SCALE`] times the SVG's size, for
//! screens that show two pixels to a point.

use std::io::Write;

use ab_glyph_rasterizer::{Rasterizer, point};

use super::PictureError;
use super::font::Font;
use super::scene::{Anchor, Group, Item, Kind, Paint, Scene, Stroke, TextStyle};

/// Pixels to one unit of the SVG.
pub const SCALE: i32 = 2;

/// One piece of an outline, in pixels.
#[derive(Debug, Clone, Copy)]
enum Seg {
    Line([(f32, f32); 2]),
    Quad([(f32, f32); 3]),
    Cubic([(f32, f32); 4]),
}

/// How a group places what it holds: turned about a point, and its texts' style.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    turn: Option<(f32, f32)>,
    style: Option<TextStyle>,
}

impl Place {
    /// A point of the SVG in pixels.
    fn px(&self, (x, y): (f32, f32)) -> (f32, f32) {
        let (x, y) = match self.turn {
            Some((cx, cy)) => (2.0 * cx - x, 2.0 * cy - y),
            None => (x, y),
        };
        (x * SCALE as f32, y * SCALE as f32)
    }
}

/// The picture's pixels, RGB.
struct Canvas {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Canvas {
    /// Fills the outline made of `segs` (closed contours) with `color`, `opacity` opaque.
    fn fill(&mut self, segs: &[Seg], color: [u8; 3], opacity: f32) {
        let points = segs.iter().flat_map(|s| match s {
            Seg::Line(p) => p.to_vec(),
            Seg::Quad(p) => p.to_vec(),
            Seg::Cubic(p) => p.to_vec(),
        });
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (x, y) in points {
            if !x.is_finite() || !y.is_finite() {
                return;
            }
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        if x0 > x1 || x1 < 0.0 || y1 < 0.0 || x0 > self.width as f32 || y0 > self.height as f32 {
            return;
        }
        // The rasterizer's own canvas holds the whole outline (its coverage runs on from row
        // to row, so no point may fall outside it); only what falls in the picture is kept.
        let (ox, oy) = (x0.floor(), y0.floor());
        let w = (x1.ceil() - ox) as usize + 2;
        let h = (y1.ceil() - oy) as usize + 2;
        // A glyph many times the picture's size (a broken or hostile font named by --font)
        // is not drawn rather than given a canvas that may not fit in memory.
        if w.saturating_mul(h) > 4 * self.width * self.height {
            return;
        }
        let mut r = Rasterizer::new(w, h);
        let p = |(x, y): (f32, f32)| point(x - ox, y - oy);
        for s in segs {
            match *s {
                Seg::Line([a, b]) => r.draw_line(p(a), p(b)),
                Seg::Quad([a, b, c]) => r.draw_quad(p(a), p(b), p(c)),
                Seg::Cubic([a, b, c, d]) => r.draw_cubic(p(a), p(b), p(c), p(d)),
            }
        }
        let (ox, oy) = (ox as i64, oy as i64);
        r.for_each_pixel_2d(|x, y, coverage| {
            let alpha = coverage.min(1.0) * opacity;
            if alpha <= 0.0 {
                return;
            }
            let (px, py) = (ox + i64::from(x), oy + i64::from(y));
            if px < 0 || py < 0 || px as usize >= self.width || py as usize >= self.height {
                return;
            }
            let i = (py as usize * self.width + px as usize) * 3;
            for (c, &want) in self.rgb[i..i + 3].iter_mut().zip(&color) {
                let blended = f32::from(*c) * (1.0 - alpha) + f32::from(want) * alpha;
                *c = blended.round().clamp(0.0, 255.0) as u8;
            }
        });
    }
}

/// The scene in pixels, as a PNG file's bytes.
pub fn write(scene: &Scene, font: &Font) -> Result<Vec<u8>, PictureError> {
    let face = font.face()?;
    let width = (scene.width * SCALE) as usize;
    let height = (scene.height * SCALE) as usize;
    let mut canvas = Canvas {
        width,
        height,
        rgb: vec![255; width * height * 3],
    };
    let mut painter = Painter {
        canvas: &mut canvas,
        face: &face,
    };
    for item in &scene.items {
        painter.item(item, Place::default());
    }
    encode(&canvas, &scene.title).map_err(|e| PictureError::Encode(e.to_string()))
}

struct Painter<'a, 'f> {
    canvas: &'a mut Canvas,
    face: &'a ttf_parser::Face<'f>,
}

impl Painter<'_, '_> {
    fn item(&mut self, item: &Item, place: Place) {
        match item {
            Item::Shape(s) => self.shape(&s.kind, place),
            Item::Group(g) => self.group(g, place),
        }
    }

    fn group(&mut self, g: &Group, outer: Place) {
        let place = Place {
            turn: g.turn.map(|(x, y)| (x as f32, y as f32)).or(outer.turn),
            style: g.style.or(outer.style),
        };
        for item in &g.items {
            self.item(item, place);
        }
    }

    fn shape(&mut self, kind: &Kind, place: Place) {
        let f = |(x, y): (i32, i32)| (x as f32, y as f32);
        match kind {
            Kind::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let corners = [(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h)].map(f);
                self.polygon(&corners, *fill, place);
                if let Some(s) = stroke {
                    self.outline(&corners, *s, place);
                }
            }
            Kind::Line { from, to, stroke } => {
                let (a, b) = (f(*from), f(*to));
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt();
                if len == 0.0 {
                    return;
                }
                let half = stroke.width.unwrap_or(1) as f32 / 2.0;
                let (nx, ny) = (-dy / len * half, dx / len * half);
                let band = [
                    (a.0 + nx, a.1 + ny),
                    (b.0 + nx, b.1 + ny),
                    (b.0 - nx, b.1 - ny),
                    (a.0 - nx, a.1 - ny),
                ];
                self.polygon(&band, paint(stroke.color), place);
            }
            Kind::Circle { centre, r, fill } => {
                let (cx, cy) = f(*centre);
                let r = *r as f32;
                let round: Vec<(f32, f32)> = (0..48)
                    .map(|i| {
                        let a = i as f32 * std::f32::consts::TAU / 48.0;
                        (cx + r * a.cos(), cy + r * a.sin())
                    })
                    .collect();
                self.polygon(&round, paint(fill), place);
            }
            Kind::Polygon {
                points,
                fill,
                stroke,
            } => {
                let points: Vec<(f32, f32)> = points.iter().copied().map(f).collect();
                self.polygon(&points, paint(fill), place);
                self.outline(&points, *stroke, place);
            }
            Kind::Text { at, style, text } => {
                if let Some(style) = style.or(place.style) {
                    self.text(f(*at), style, text, place);
                }
            }
        }
    }

    /// Fills a closed polygon given in the SVG's units.
    fn polygon(&mut self, points: &[(f32, f32)], fill: Paint, place: Place) {
        let segs = closed(points, place);
        self.canvas
            .fill(&segs, rgb(fill.color), fill.opacity.unwrap_or(1.0));
    }

    /// Strokes a convex polygon's outline: the band between it grown and shrunk by half the
    /// stroke's width, with mitred corners as SVG draws them.
    fn outline(&mut self, points: &[(f32, f32)], stroke: Stroke, place: Place) {
        let half = stroke.width.unwrap_or(1) as f32 / 2.0;
        let mut segs = closed(&offset(points, half), place);
        let mut inner = offset(points, -half);
        inner.reverse();
        segs.extend(closed(&inner, place));
        self.canvas.fill(&segs, rgb(stroke.color), 1.0);
    }

    /// A run of text on its baseline at `at`, glyph by glyph from the font (a character the
    /// font lacks: its missing-glyph mark). ☗ and ☖ are drawn as the pieces they show.
    fn text(&mut self, at: (f32, f32), style: TextStyle, text: &str, place: Place) {
        let size = style.size as f32;
        let scale = size / f32::from(self.face.units_per_em().max(1));
        let glyph = |c: char| self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
        let advance = |c: char| match c {
            '☗' | '☖' => size,
            c => f32::from(self.face.glyph_hor_advance(glyph(c)).unwrap_or(0)) * scale,
        };
        let width: f32 = text.chars().map(advance).sum();
        let mut x = match style.anchor {
            Anchor::Start => at.0,
            Anchor::Middle => at.0 - width / 2.0,
            Anchor::End => at.0 - width,
        };
        let color = rgb(style.fill);
        for c in text.chars() {
            // Past the picture's right edge nothing more shows (a long name).
            if x > (self.canvas.width / SCALE as usize) as f32 && place.turn.is_none() {
                break;
            }
            match c {
                '☗' | '☖' => self.mark(c == '☗', (x, at.1), size, style.fill, place),
                c => {
                    let mut outline = Outline {
                        segs: Vec::new(),
                        start: (0.0, 0.0),
                        last: (0.0, 0.0),
                        origin: (x, at.1),
                        scale,
                        place,
                    };
                    if self.face.outline_glyph(glyph(c), &mut outline).is_some() {
                        self.canvas.fill(&outline.segs, color, 1.0);
                    }
                }
            }
            x += advance(c);
        }
    }

    /// A side's mark, ☗ (sente's, filled) or ☖ (gote's, outlined), a piece's shape in the
    /// em box at `at` on the baseline.
    fn mark(&mut self, filled: bool, at: (f32, f32), size: f32, color: &'static str, place: Place) {
        let top = at.1 - 0.86 * size;
        let p = |x: f32, y: f32| (at.0 + x * size, top + y * size);
        let shape = [
            p(0.5, 0.06),
            p(0.82, 0.22),
            p(0.88, 0.96),
            p(0.12, 0.96),
            p(0.18, 0.22),
        ];
        if filled {
            self.polygon(&shape, paint(color), place);
        }
        // Within the shape, so that ☖'s outline is as wide as ☗.
        let inset = offset(&shape, -0.5);
        self.outline(&inset, Stroke { color, width: None }, place);
    }
}

/// A glyph's outline in pixels, from the font's units (y up) at its pen position.
struct Outline {
    segs: Vec<Seg>,
    start: (f32, f32),
    last: (f32, f32),
    origin: (f32, f32),
    scale: f32,
    place: Place,
}

impl Outline {
    fn at(&self, x: f32, y: f32) -> (f32, f32) {
        self.place.px((
            self.origin.0 + x * self.scale,
            self.origin.1 - y * self.scale,
        ))
    }
}

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.close();
        self.start = self.at(x, y);
        self.last = self.start;
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let p = self.at(x, y);
        self.segs.push(Seg::Line([self.last, p]));
        self.last = p;
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let p = self.at(x, y);
        self.segs.push(Seg::Quad([self.last, self.at(x1, y1), p]));
        self.last = p;
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let p = self.at(x, y);
        self.segs
            .push(Seg::Cubic([self.last, self.at(x1, y1), self.at(x2, y2), p]));
        self.last = p;
    }

    /// Closes the contour back to its start (a font may leave that line implied).
    fn close(&mut self) {
        if self.last != self.start {
            self.segs.push(Seg::Line([self.last, self.start]));
            self.last = self.start;
        }
    }
}

/// A polygon's edges in pixels, closed.
fn closed(points: &[(f32, f32)], place: Place) -> Vec<Seg> {
    let px: Vec<(f32, f32)> = points.iter().map(|&p| place.px(p)).collect();
    (0..px.len())
        .map(|i| Seg::Line([px[i], px[(i + 1) % px.len()]]))
        .collect()
}

/// A convex polygon grown by `d` (shrunk when negative) on every side, its corners mitred.
fn offset(points: &[(f32, f32)], d: f32) -> Vec<(f32, f32)> {
    let n = points.len();
    // Shoelace: positive for a polygon that runs clockwise on the screen (y down).
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let side = if area >= 0.0 { 1.0 } else { -1.0 };
    let normal = |i: usize| {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
        (side * dy / len, -side * dx / len)
    };
    (0..n)
        .map(|i| {
            let (p, q) = (normal((i + n - 1) % n), normal(i));
            let k = d / (1.0 + p.0 * q.0 + p.1 * q.1).max(0.1);
            (points[i].0 + (p.0 + q.0) * k, points[i].1 + (p.1 + q.1) * k)
        })
        .collect()
}

fn paint(color: &'static str) -> Paint {
    Paint {
        color,
        opacity: None,
    }
}

/// A CSS colour `#rgb` or `#rrggbb` (the scene's own; anything else is black).
fn rgb(css: &str) -> [u8; 3] {
    let hex = css.trim_start_matches('#');
    let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1).unwrap_or("0"), 16).unwrap_or(0);
    match hex.len() {
        3 => [digit(0) * 17, digit(1) * 17, digit(2) * 17],
        6 => [0, 2, 4].map(|i| digit(i) * 16 + digit(i + 1)),
        _ => [0, 0, 0],
    }
}

/// The pixels as a PNG file: 8-bit RGB, rows unfiltered, deflated; the title in an iTXt
/// chunk (UTF-8).
fn encode(canvas: &Canvas, title: &str) -> std::io::Result<Vec<u8>> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut head = Vec::with_capacity(13);
    head.extend_from_slice(&(canvas.width as u32).to_be_bytes());
    head.extend_from_slice(&(canvas.height as u32).to_be_bytes());
    // 8 bits a sample, colour type 2 (RGB), deflate, no filter method but 0, no interlace.
    head.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &head);
    let mut text = b"Title\0\0\0\0\0".to_vec();
    text.extend_from_slice(title.as_bytes());
    chunk(&mut out, b"iTXt", &text);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    for row in canvas.rgb.chunks(canvas.width * 3) {
        z.write_all(&[0])?;
        z.write_all(row)?;
    }
    chunk(&mut out, b"IDAT", &z.finish()?);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_colours() {
        assert_eq!(rgb("#222"), [0x22, 0x22, 0x22]);
        assert_eq!(rgb("#f2d59b"), [0xf2, 0xd5, 0x9b]);
        assert_eq!(rgb("#b00"), [0xbb, 0, 0]);
    }

    #[test]
    fn a_square_grown_and_shrunk() {
        let square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        assert_eq!(
            offset(&square, 1.0),
            [(-1.0, -1.0), (11.0, -1.0), (11.0, 11.0), (-1.0, 11.0)]
        );
        let mut anticlockwise = square;
        anticlockwise.reverse();
        assert_eq!(
            offset(&anticlockwise, -1.0),
            [(1.0, 9.0), (9.0, 9.0), (9.0, 1.0), (1.0, 1.0)]
        );
    }

    #[test]
    fn an_outline_far_larger_than_the_picture_is_not_drawn() {
        let mut c = Canvas {
            width: 8,
            height: 6,
            rgb: vec![255; 8 * 6 * 3],
        };
        let huge = [(-1e7, -1e7), (1e7, -1e7), (1e7, 1e7), (-1e7, 1e7)];
        c.fill(&closed(&huge, Place::default()), [0, 0, 0], 1.0);
        assert!(c.rgb.iter().all(|&v| v == 255));
        // The picture's own size is drawn (the background).
        let whole = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 3.0)];
        c.fill(&closed(&whole, Place::default()), [0, 0, 0], 1.0);
        assert!(c.rgb.iter().all(|&v| v == 0));
    }

    #[test]
    fn a_filled_rectangle_covers_exactly_its_pixels() {
        let mut c = Canvas {
            width: 8,
            height: 6,
            rgb: vec![255; 8 * 6 * 3],
        };
        let r = [(2.0, 1.0), (6.0, 1.0), (6.0, 4.0), (2.0, 4.0)];
        c.fill(&closed(&r, Place::default()), [0, 0, 0], 1.0);
        for y in 0..6 {
            for x in 0..8 {
                // Scaled by SCALE: the rectangle is x 4..12, y 2..8 — wider than the canvas.
                let inside = (4..12).contains(&x) && (2..8).contains(&y);
                let v = c.rgb[(y * 8 + x) * 3];
                assert_eq!(v, if inside { 0 } else { 255 }, "({x}, {y})");
            }
        }
    }
}
