//! Link-preview images: one 1200×630 PNG per incident (`incidents/<id>/preview.png`),
//! which its page names as `og:image` and `twitter:image`, so that a link shared in a
//! chat app or a social feed shows the incident's title, organisation, date and
//! classification instead of a bare URL.
//!
//! Each image is written as SVG here and drawn with resvg, never a browser. The text
//! is set in fonts compiled into the binary (a subset of Noto Sans CJK KR Bold, and
//! of DejaVu Sans Bold for the few Latin letters it lacks, such as Ś; `assets/fonts/`,
//! made by `scripts/subset-font.sh`), and the font database holds those alone, so
//! that an image never depends on the fonts a machine has. Lines are broken
//! here, by the glyphs' advances read from the same fonts (the subsets have no
//! layout features, so the shaper moves nothing and a measured line is the drawn
//! line). Record text reaches the SVG only XML-escaped.
//!
//! The design is flat, in a handful of the site's colours, and each image is stored
//! as an indexed PNG whose palette is those colours and the blends that
//! anti-aliasing makes between them: half the bytes of the RGBA image.

use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use resvg::{tiny_skia, usvg};
use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

use crate::corpus::{Corpus, Incident};
use crate::error::{Error, Result};
use crate::feed::escape;
use crate::site::label;
use incident_core::index::FACETS;

/// The image's size in pixels: the 1.91:1 that OpenGraph and Twitter's large card show.
pub const WIDTH: u32 = 1200;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 630;

/// The image's file name in its incident's folder (`incidents/IL-0001/preview.png`).
pub const FILE: &str = "preview.png";

/// The fonts a preview is set in (see the module's note), in the order a character
/// is looked up, as the renderer's fallback does; the first one's family name.
pub const FONTS: [&[u8]; 2] = [
    include_bytes!("../../../assets/fonts/NotoSansCJKkr-Bold-subset.otf"),
    include_bytes!("../../../assets/fonts/DejaVuSans-Bold-subset.ttf"),
];
const FAMILY: &str = "Noto Sans CJK KR";

/// The site's colours (`www/app.css`, light theme) that the image uses, as RGB; the
/// accent is the icon's ([`crate::favicon::ACCENT`]).
const BG: [u8; 3] = [0xff, 0xff, 0xff];
const FG: [u8; 3] = [0x1d, 0x23, 0x30];
const MUTED: [u8; 3] = [0x5b, 0x64, 0x74];
const PANEL: [u8; 3] = [0xf4, 0xf6, 0xf9];
const LINE: [u8; 3] = [0xd9, 0xde, 0xe6];
const ACCENT: [u8; 3] = crate::favicon::ACCENT;

/// Which colour the image draws on which: anti-aliased edges blend the two, and the
/// palette holds [`LEVELS`] steps of each blend.
const PAIRS: [([u8; 3], [u8; 3]); 6] = [
    (FG, BG),
    (MUTED, BG),
    (ACCENT, BG),
    (FG, PANEL),
    (MUTED, PANEL),
    (LINE, PANEL),
];

/// Steps of each blend in the palette, both ends included: 16 steps of coverage
/// look as smooth as 256 at these sizes, and a small palette compresses well.
const LEVELS: u32 = 16;

/// The page's side margin, and the width left for text.
const MARGIN: f32 = 72.0;
const TEXT_WIDTH: f32 = WIDTH as f32 - 2.0 * MARGIN;

/// Title sizes in pixels, largest first: the first at which the title fits in
/// [`TITLE_LINES`] lines, else the last, with the title cut short by an ellipsis.
const TITLE_SIZES: [f32; 3] = [64.0, 58.0, 52.0];
const TITLE_LINES: usize = 3;

/// Where the classification panel starts (it runs to the bottom edge).
const PANEL_TOP: f32 = 470.0;

/// A classification value's sizes, largest first, as for [`TITLE_SIZES`].
const VALUE_SIZES: [f32; 3] = [32.0, 30.0, 28.0];

/// What one preview shows: the record's own text and the taxonomy's labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Card<'a> {
    /// `IL-0001`.
    pub id: &'a str,
    /// The title, as the record writes it.
    pub title: &'a str,
    /// The organisation's label.
    pub org: &'a str,
    /// The date as readers see it (`2019년 6월`).
    pub date: String,
    /// The facets a hit shows (cause, component, symptom): each one's Korean name and
    /// the labels of the record's values.
    pub classes: Vec<(&'a str, Vec<&'a str>)>,
}

impl<'a> Card<'a> {
    /// The card of incident `inc`.
    pub fn of(corpus: &'a Corpus, inc: &'a Incident) -> Self {
        let classes = FACETS
            .iter()
            .filter(|f| f.on_hits)
            .map(|f| {
                let labels = inc.facet(f.key).into_iter().map(|slug| label(corpus, f.key, slug));
                (f.ko, labels.collect())
            })
            .collect();
        Card {
            id: &inc.id,
            title: &inc.title,
            org: label(corpus, "org", &inc.org),
            date: inc.when.label(),
            classes,
        }
    }
}

/// Draws previews: the font, measured and loaded once, shared by the threads.
pub struct Renderer {
    options: usvg::Options<'static>,
    fonts: Vec<FontRef<'static>>,
    palette: Palette,
}

impl Renderer {
    /// A renderer with [`FONTS`] as its only fonts.
    pub fn new() -> Result<Self> {
        let mut database = usvg::fontdb::Database::new();
        let mut fonts = Vec::new();
        for font in FONTS {
            fonts.push(FontRef::new(font).map_err(|e| Error::msg(format!("a link preview font: {e}")))?);
            database.load_font_source(usvg::fontdb::Source::Binary(Arc::new(font)));
        }
        database.set_sans_serif_family(FAMILY);
        let options = usvg::Options {
            font_family: FAMILY.into(),
            fontdb: Arc::new(database),
            // The SVG is ours and names no image; nothing is read from outside it.
            resources_dir: None,
            image_href_resolver: usvg::ImageHrefResolver {
                resolve_data: Box::new(|_, _, _| None),
                resolve_string: Box::new(|_, _| None),
            },
            ..usvg::Options::default()
        };
        Ok(Renderer {
            options,
            fonts,
            palette: Palette::new(),
        })
    }

    /// True when a font has a glyph for `c` (spaces and line breaks count as had).
    pub fn has_glyph(&self, c: char) -> bool {
        c.is_whitespace() || self.fonts.iter().any(|f| f.charmap().map(c).is_some())
    }

    /// The width of `text` set on one line at `size` pixels: the sum of its glyphs'
    /// advances, each from the first font that has it, as the shaper places them
    /// (the fonts have no kerning or ligatures).
    fn width(&self, text: &str, size: f32) -> f32 {
        text.chars()
            .map(|c| {
                let font = self.fonts.iter().find(|f| f.charmap().map(c).is_some());
                let font = font.unwrap_or(&self.fonts[0]);
                let glyph = font.charmap().map(c).unwrap_or_default();
                let metrics = font.glyph_metrics(Size::new(size), LocationRef::default());
                metrics.advance_width(glyph).unwrap_or(0.0)
            })
            .sum()
    }

    /// `text` broken into lines no wider than `max` at `size`, between words where it
    /// can (as the site's `word-break: keep-all`), inside a word only when the word
    /// alone is wider than a line. Runs of white space count as one space.
    fn lines(&self, text: &str, size: f32, max: f32) -> Vec<String> {
        let space = self.width(" ", size);
        let mut lines = Vec::new();
        let (mut line, mut used) = (String::new(), 0.0);
        for word in text.split_whitespace() {
            let w = self.width(word, size);
            if !line.is_empty() && used + space + w <= max {
                line.push(' ');
                line.push_str(word);
                used += space + w;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0.0;
            }
            if w <= max {
                line.push_str(word);
                used = w;
                continue;
            }
            for c in word.chars() {
                let cw = self.width(c.encode_utf8(&mut [0; 4]), size);
                if !line.is_empty() && used + cw > max {
                    lines.push(std::mem::take(&mut line));
                    used = 0.0;
                }
                line.push(c);
                used += cw;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    /// `line` cut so that it and an ellipsis fit in `max` at `size`, with the
    /// ellipsis; spaces and commas before it are dropped.
    fn ellipsis(&self, line: &str, size: f32, max: f32) -> String {
        let room = max - self.width("…", size);
        let mut out = String::new();
        let mut used = 0.0;
        for c in line.chars() {
            let cw = self.width(c.encode_utf8(&mut [0; 4]), size);
            if used + cw > room {
                break;
            }
            out.push(c);
            used += cw;
        }
        let kept = out.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '·' | '-' | '('));
        format!("{kept}…")
    }

    /// `text` in at most `max_lines` lines of `max` pixels, at the first of `sizes`
    /// it fits at, else at the last, the last line ending in an ellipsis.
    fn fit(&self, text: &str, sizes: &[f32], max: f32, max_lines: usize) -> (f32, Vec<String>) {
        let mut last = (0.0, Vec::new());
        for &size in sizes {
            let lines = self.lines(text, size, max);
            if lines.len() <= max_lines {
                return (size, lines);
            }
            last = (size, lines);
        }
        let (size, mut lines) = last;
        lines.truncate(max_lines);
        if let Some(end) = lines.last_mut() {
            *end = self.ellipsis(end, size, max);
        }
        (size, lines)
    }

    /// The preview of `card` as SVG.
    pub fn svg(&self, card: &Card) -> String {
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-weight=\"700\">\
             <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"{}\"/><rect width=\"{WIDTH}\" height=\"12\" fill=\"{}\"/>",
            hex(BG),
            hex(ACCENT)
        );
        let text = |svg: &mut String, x: f32, y: f32, size: f32, colour: [u8; 3], anchor: &str, body: &str| {
            let _ = write!(
                svg,
                "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" fill=\"{}\"{anchor}>{}</text>",
                hex(colour),
                escape(body)
            );
        };
        // The brand: the site's icon and name, the incident's id at the right.
        let _ = write!(
            svg,
            "<svg x=\"{MARGIN}\" y=\"52\" width=\"48\" height=\"48\" viewBox=\"0 0 32 32\">{}</svg>",
            crate::favicon::shapes()
        );
        text(&mut svg, MARGIN + 64.0, 88.0, 32.0, FG, "", "Incident Library");
        let id_right = WIDTH as f32 - MARGIN;
        text(&mut svg, id_right, 88.0, 28.0, MUTED, " text-anchor=\"end\"", card.id);
        // Organisation and date (this font's middle dot is wide enough without
        // spaces), then the title.
        let (size, kicker) = self.fit(&format!("{}·{}", card.org, card.date), &[30.0], TEXT_WIDTH, 1);
        for line in &kicker {
            text(&mut svg, MARGIN, 176.0, size, ACCENT, "", line);
        }
        let (size, title) = self.fit(card.title, &TITLE_SIZES, TEXT_WIDTH, TITLE_LINES);
        for (i, line) in title.iter().enumerate() {
            let y = 200.0 + size + i as f32 * (size * 1.28).round();
            text(&mut svg, MARGIN, y, size, FG, "", line);
        }
        // The classification: one column a facet, its name over its first value and
        // how many more it has, the values in one size, the largest all fit at; at
        // the smallest, a value too long is cut before its count.
        let _ = write!(
            svg,
            "<rect y=\"{PANEL_TOP}\" width=\"{WIDTH}\" height=\"{}\" fill=\"{}\"/><rect y=\"{PANEL_TOP}\" width=\"{WIDTH}\" height=\"2\" fill=\"{}\"/>",
            HEIGHT as f32 - PANEL_TOP,
            hex(PANEL),
            hex(LINE)
        );
        let column = TEXT_WIDTH / card.classes.len().max(1) as f32;
        let room = column - 24.0;
        let values: Vec<(&str, String)> = card
            .classes
            .iter()
            .map(|(_, labels)| match labels.as_slice() {
                [] => ("–", String::new()),
                [one] => (*one, String::new()),
                [first, rest @ ..] => (*first, format!(" 외 {}건", rest.len())),
            })
            .collect();
        let fits = |size: f32| {
            values
                .iter()
                .all(|(v, more)| self.width(v, size) + self.width(more, size) <= room)
        };
        let smallest = VALUE_SIZES[VALUE_SIZES.len() - 1];
        let size = VALUE_SIZES.into_iter().find(|&s| fits(s)).unwrap_or(smallest);
        for (i, ((name, _), (value, more))) in card.classes.iter().zip(&values).enumerate() {
            let x = MARGIN + i as f32 * column;
            text(&mut svg, x, PANEL_TOP + 54.0, 24.0, MUTED, "", name);
            let room = room - self.width(more, size);
            let value = if self.width(value, size) <= room {
                value.to_string()
            } else {
                self.ellipsis(value, size, room)
            };
            text(&mut svg, x, PANEL_TOP + 104.0, size, FG, "", &format!("{value}{more}"));
        }
        svg.push_str("</svg>\n");
        svg
    }

    /// The preview of `card` as an indexed PNG of [`WIDTH`]×[`HEIGHT`].
    pub fn png(&self, card: &Card) -> Result<Vec<u8>> {
        let failed = |what: String| Error::msg(format!("{}: the link preview: {what}", card.id));
        let tree = usvg::Tree::from_str(&self.svg(card), &self.options).map_err(|e| failed(e.to_string()))?;
        let mut pixmap =
            tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or_else(|| failed("no memory for the image".into()))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        self.palette
            .encode(pixmap.data(), WIDTH, HEIGHT)
            .map_err(|e| failed(e.to_string()))
    }
}

/// The palette: the colours of [`PAIRS`] and their blends, with the nearest entry
/// of each colour met so far.
struct Palette {
    colours: Vec<[u8; 3]>,
}

impl Palette {
    fn new() -> Self {
        let mut colours: Vec<[u8; 3]> = Vec::new();
        for (fore, back) in PAIRS {
            for step in 0..LEVELS {
                let mix = |f: u8, b: u8| {
                    ((u32::from(f) * step + u32::from(b) * (LEVELS - 1 - step) + (LEVELS - 1) / 2) / (LEVELS - 1)) as u8
                };
                let c = [mix(fore[0], back[0]), mix(fore[1], back[1]), mix(fore[2], back[2])];
                if !colours.contains(&c) {
                    colours.push(c);
                }
            }
        }
        debug_assert!(colours.len() <= 256);
        Palette { colours }
    }

    /// The entry nearest to `c` (squared distance in RGB).
    fn nearest(&self, c: [u8; 3]) -> u8 {
        let d = |p: &[u8; 3]| -> u32 { (0..3).map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2) as u32).sum() };
        let mut best = (u32::MAX, 0);
        for (i, p) in self.colours.iter().enumerate() {
            let dist = d(p);
            if dist < best.0 {
                best = (dist, i);
            }
        }
        best.1 as u8
    }

    /// The palette entry of every pixel of `rgba`: the nearest, worked out once a
    /// colour (most pixels repeat the one before, and a small cache by the
    /// colour's hash holds the rest).
    fn indices(&self, rgba: &[u8]) -> Vec<u8> {
        const SLOTS: usize = 1 << 12;
        let mut cache = vec![(u32::MAX, 0u8); SLOTS];
        let mut last = (u32::MAX, 0u8);
        rgba.chunks_exact(4)
            .map(|p| {
                let key = u32::from_le_bytes([p[0], p[1], p[2], 0]);
                if key != last.0 {
                    let slot = (key.wrapping_mul(0x9e37_79b1) >> 20) as usize % SLOTS;
                    if cache[slot].0 != key {
                        cache[slot] = (key, self.nearest([p[0], p[1], p[2]]));
                    }
                    last = cache[slot];
                }
                last.1
            })
            .collect()
    }

    /// `rgba` (opaque, as the image's background makes it) as an indexed PNG.
    fn encode(&self, rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, png::EncodingError> {
        let indices = self.indices(rgba);
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(self.colours.concat());
        // Palette images compress best unfiltered (the PNG specification's advice).
        // zlib's level 4: here half the time of its default (6) for 4 % more bytes,
        // about 25 KB an image.
        encoder.set_filter(png::Filter::NoFilter);
        encoder.set_deflate_compression(png::DeflateCompression::Level(4));
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&indices)?;
        writer.finish()?;
        Ok(out)
    }
}

/// `#rrggbb`.
fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The path of incident `id`'s preview in the bundle.
pub fn path(id: &str) -> String {
    format!("incidents/{id}/{FILE}")
}

/// Renders every incident's preview on one thread a core and hands each to `write`
/// (its path in the bundle, the PNG) on the thread that drew it, so that a large
/// library's images are never held all at once; returns the path and size of each,
/// in the corpus's order. After an error the threads stop, and the first error is
/// returned. Only with the site's URL: the pages name their previews only then
/// (OpenGraph wants absolute URLs), and without it the build skips their cost.
pub fn write_all(
    corpus: &Corpus,
    site_url: Option<&str>,
    write: &(dyn Fn(&str, &[u8]) -> Result<()> + Sync),
) -> Result<Vec<(String, usize)>> {
    if site_url.is_none() || corpus.incidents.is_empty() {
        return Ok(Vec::new());
    }
    let renderer = Renderer::new()?;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let threads = crate::threads().min(corpus.incidents.len());
    let draw = || -> Result<Vec<(usize, String, usize)>> {
        let mut done = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let d = next.fetch_add(1, Ordering::Relaxed);
            let Some(inc) = corpus.incidents.get(d) else { break };
            let path = path(&inc.id);
            let drawn = renderer.png(&Card::of(corpus, inc)).and_then(|png| {
                write(&path, &png)?;
                Ok(png.len())
            });
            match drawn {
                Ok(size) => done.push((d, path, size)),
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(done)
    };
    let parts: Vec<Result<Vec<(usize, String, usize)>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(draw)).collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    let mut written = Vec::with_capacity(corpus.incidents.len());
    for part in parts {
        written.extend(part?);
    }
    written.sort_unstable_by_key(|&(d, _, _)| d);
    Ok(written.into_iter().map(|(_, path, size)| (path, size)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(title: &str) -> Card<'_> {
        Card {
            id: "IL-0001",
            title,
            org: "Cloudflare",
            date: "2019-07-02".into(),
            classes: vec![
                ("원인", vec!["설정 변경 오류"]),
                ("구성 요소", vec!["데이터베이스 복제와 장애 조치", "CDN"]),
                ("증상", vec!["서비스 중단", "지연 증가", "오류율 증가"]),
            ],
        }
    }

    /// The decoded image: width, height and RGB pixels.
    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        (info.width, info.height, pixels)
    }

    /// Pixels in the rows `top..bottom` that are far from the background: text.
    fn inked(rgb: &[u8], top: u32, bottom: u32) -> usize {
        let row = WIDTH as usize * 3;
        rgb[top as usize * row..bottom as usize * row]
            .chunks_exact(3)
            .filter(|p| p.iter().map(|&c| 255 - u32::from(c)).sum::<u32>() > 300)
            .count()
    }

    fn corpus() -> Corpus {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        crate::corpus::load(&data).unwrap_or_else(|d| panic!("{} problems in data/", d.len()))
    }

    #[test]
    fn the_image_is_1200_by_630_with_the_title_drawn() {
        let renderer = Renderer::new().unwrap();
        let png = renderer.png(&card("설정 변경 하나가 전 세계 엣지를 멈췄다")).unwrap();
        let (w, h, rgb) = decode(&png);
        assert_eq!((w, h), (WIDTH, HEIGHT));
        // The title's rows hold text, and so does the classification panel.
        assert!(inked(&rgb, 200, 300) > 2_000, "{}", inked(&rgb, 200, 300));
        assert!(inked(&rgb, PANEL_TOP as u32, HEIGHT) > 1_000);
        let blank = renderer.png(&card("")).unwrap();
        assert_eq!(inked(&decode(&blank).2, 200, 300), 0);
    }

    #[test]
    fn a_long_title_is_cut_to_three_lines_that_fit() {
        let renderer = Renderer::new().unwrap();
        let title = "아주 긴 제목이 ".repeat(30);
        let (size, lines) = renderer.fit(&title, &TITLE_SIZES, TEXT_WIDTH, TITLE_LINES);
        assert_eq!(size, TITLE_SIZES[TITLE_SIZES.len() - 1]);
        assert_eq!(lines.len(), TITLE_LINES);
        assert!(lines[2].ends_with('…'), "{lines:?}");
        for line in &lines {
            assert!(renderer.width(line, size) <= TEXT_WIDTH, "{line}");
        }
        // A word wider than a line is broken inside, not left to overflow.
        let word = "가".repeat(60);
        let lines = renderer.lines(&word, 46.0, TEXT_WIDTH);
        assert!(lines.len() > 1 && lines.iter().all(|l| renderer.width(l, 46.0) <= TEXT_WIDTH));
        // A short title takes the largest size.
        assert_eq!(renderer.fit("짧은 제목", &TITLE_SIZES, TEXT_WIDTH, 3).0, TITLE_SIZES[0]);
    }

    #[test]
    fn record_text_is_escaped_and_still_drawn() {
        let renderer = Renderer::new().unwrap();
        let hostile = card("</text><script>alert(1)</script><text>&amp; \"따옴표\" 'x'");
        let svg = renderer.svg(&hostile);
        assert!(!svg.contains("<script") && !svg.contains("</text><script"), "{svg}");
        assert!(svg.contains("&lt;/text&gt;&lt;script&gt;"), "{svg}");
        assert!(svg.contains("&amp;amp;"), "{svg}");
        let (w, h, rgb) = decode(&renderer.png(&hostile).unwrap());
        assert_eq!((w, h), (WIDTH, HEIGHT));
        assert!(inked(&rgb, 200, 300) > 2_000);
    }

    #[test]
    fn the_longest_title_in_data_is_under_60_kb() {
        let corpus = corpus();
        let renderer = Renderer::new().unwrap();
        let longest = corpus.incidents.iter().max_by_key(|i| i.title.chars().count()).unwrap();
        let png = renderer.png(&Card::of(&corpus, longest)).unwrap();
        assert!(png.len() < 60 * 1024, "{}: {} bytes", longest.id, png.len());
        assert_eq!(decode(&png).0, WIDTH);
    }

    #[test]
    fn the_font_has_every_character_of_every_record() {
        let corpus = corpus();
        let renderer = Renderer::new().unwrap();
        let mut missing = Vec::new();
        for inc in &corpus.incidents {
            let card = Card::of(&corpus, inc);
            let texts = [card.title, card.org, &card.date, card.id];
            let labels = card
                .classes
                .iter()
                .flat_map(|(name, labels)| labels.iter().chain([name]));
            for text in texts.into_iter().chain(labels.copied()) {
                missing.extend(
                    text.chars()
                        .filter(|&c| !renderer.has_glyph(c))
                        .map(|c| (inc.id.clone(), c)),
                );
            }
        }
        assert!(
            missing.is_empty(),
            "characters the preview fonts lack (add their range to scripts/subset-font.sh): {missing:?}"
        );
    }

    #[test]
    fn the_colours_are_the_stylesheets() {
        let css = include_str!("../../../www/app.css");
        for (name, colour) in [
            ("--bg", BG),
            ("--fg", FG),
            ("--muted", MUTED),
            ("--panel", PANEL),
            ("--line", LINE),
            ("--accent", ACCENT),
        ] {
            let line = css
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{name}:")))
                .unwrap_or_else(|| panic!("app.css has no {name}"));
            assert!(
                line.contains(&hex(colour)),
                "{name} is {line:?}, the preview draws {}",
                hex(colour)
            );
        }
    }

    #[test]
    fn every_blend_is_in_the_palette() {
        let palette = Palette::new();
        assert!(palette.colours.len() <= 256);
        for (fore, back) in PAIRS {
            assert!(palette.colours.contains(&fore) && palette.colours.contains(&back));
        }
    }
}
