//! The site's icon, drawn here in both forms browsers ask for: SVG for those that
//! read it, and PNG (32 px, and 180 px for a phone's home screen) for those that
//! do not. One shape, defined once: a rounded square of the site's accent colour
//! with a white exclamation mark, the sign of an incident.

/// The accent colour of `www/app.css` (`--accent`), as RGB. The link previews
/// ([`crate::preview`]) draw with it too.
pub(crate) const ACCENT: [u8; 3] = [0x1f, 0x5f, 0xbf];

/// The shape on a 32-unit grid: the square's corner radius, the bar and the dot of
/// the mark (x, y, width, height), white on the accent.
const RADIUS: f32 = 6.0;
const BAR: (f32, f32, f32, f32) = (13.0, 5.0, 6.0, 15.0);
const DOT: (f32, f32, f32) = (16.0, 25.0, 3.2);

/// The icon as SVG.
pub fn svg() -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\">{}</svg>\n",
        shapes()
    )
}

/// The icon's shapes as SVG elements on the 32-unit grid, for a document that
/// places them (the icon itself, the link previews' brand).
pub(crate) fn shapes() -> String {
    let [r, g, b] = ACCENT;
    let (bx, by, bw, bh) = BAR;
    let (cx, cy, cr) = DOT;
    format!(
        "<rect width=\"32\" height=\"32\" rx=\"{RADIUS}\" fill=\"#{r:02x}{g:02x}{b:02x}\"/><rect x=\"{bx}\" y=\"{by}\" width=\"{bw}\" height=\"{bh}\" rx=\"2\" fill=\"#fff\"/><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{cr}\" fill=\"#fff\"/>"
    )
}

/// The icon as a `size`×`size` RGBA PNG: each pixel sampled at its centre
/// (4×4 samples, for smooth edges).
pub fn png(size: u32) -> Vec<u8> {
    let scale = 32.0 / size as f32;
    let mut rgba = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let (mut inside, mut white) = (0u32, 0u32);
            for sy in 0..4 {
                for sx in 0..4 {
                    let px = (x as f32 + (sx as f32 + 0.5) / 4.0) * scale;
                    let py = (y as f32 + (sy as f32 + 0.5) / 4.0) * scale;
                    if in_square(px, py) {
                        inside += 1;
                        white += u32::from(in_mark(px, py));
                    }
                }
            }
            let mix = |c: u8| ((u32::from(c) * (inside - white) + 255 * white) / inside.max(1)) as u8;
            rgba.extend_from_slice(&[
                mix(ACCENT[0]),
                mix(ACCENT[1]),
                mix(ACCENT[2]),
                (inside * 255 / 16) as u8,
            ]);
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, size, size);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // Unfiltered, zlib at its best: the smallest file for flat colours.
    encoder.set_filter(png::Filter::NoFilter);
    encoder.set_deflate_compression(png::DeflateCompression::Level(9));
    // Into a Vec, of a size and colour type that match: encoding cannot fail.
    let written = encoder.write_header().and_then(|mut w| w.write_image_data(&rgba));
    debug_assert!(written.is_ok(), "{written:?}");
    out
}

fn in_square(x: f32, y: f32) -> bool {
    // Distance from the corner circles' centres, where a corner is rounded.
    let cx = x.clamp(RADIUS, 32.0 - RADIUS);
    let cy = y.clamp(RADIUS, 32.0 - RADIUS);
    (0.0..32.0).contains(&x) && (0.0..32.0).contains(&y) && (x - cx).powi(2) + (y - cy).powi(2) <= RADIUS * RADIUS
}

fn in_mark(x: f32, y: f32) -> bool {
    let (bx, by, bw, bh) = BAR;
    let (cx, cy, cr) = DOT;
    (bx..bx + bw).contains(&x) && (by..by + bh).contains(&y) || (x - cx).powi(2) + (y - cy).powi(2) <= cr * cr
}

/// The icon files of the bundle's root: (path, bytes). `favicon.ico` holds the
/// 32 px PNG (an ICO may), for clients that ask for it without reading the page.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let small = png(32);
    let mut ico = vec![0, 0, 1, 0, 1, 0]; // reserved, type 1 (icon), one image
    ico.extend_from_slice(&[32, 32, 0, 0, 1, 0, 32, 0]); // 32×32, no palette, 1 plane, 32 bpp
    ico.extend_from_slice(&(small.len() as u32).to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes()); // the image follows the 22-byte header
    ico.extend_from_slice(&small);
    vec![
        ("favicon.svg".into(), svg().into_bytes()),
        ("favicon-32.png".into(), small),
        ("apple-touch-icon.png".into(), png(180)),
        ("favicon.ico".into(), ico),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_structure() {
        let png = png(32);
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 32);
        assert!(png.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]));
        assert!(svg().starts_with("<svg"));
    }
}
