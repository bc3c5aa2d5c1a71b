//! Text-form value types of the block documents: `block.ByteSize`, `block.PercentageSize`,
//! `block.Size`, `cel.Expression`, and the enumer-generated enums printed by name.

use crate::model::network::types::text_for_unmarshal;
use crate::value::{DecodeCx, MergeFlags, Value};
use crate::yaml::Node;

/// `humanize.ParseBytes`, accepting a leading `-` as Talos's sizes do. Returns the magnitude.
pub(crate) fn parse_bytes(text: &str) -> Result<f64, String> {
    parse_bytes_in(text, true)
}

/// `humanize.ParseBytes` as is (no sign allowed). Returns the magnitude.
pub(crate) fn humanize_parse_bytes(text: &str) -> Result<f64, String> {
    parse_bytes_in(text, false)
}

/// `humanize.ParseBytes`, with a leading `-` stripped first where the release allows negative
/// sizes (v1.13 on; before, `-` fails as a number).
fn parse_bytes_in(text: &str, negative: bool) -> Result<f64, String> {
    let body = if negative { text.strip_prefix('-').unwrap_or(text) } else { text };
    let split = body.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).unwrap_or(body.len());
    let (num, unit) = body.split_at(split);
    let num: String = num.chars().filter(|&c| c != ',').collect();
    let value = go_parse_float(&num)?;
    let unit = unit.trim().to_lowercase();
    let mult: f64 = match unit.as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "ki" | "kib" => 1024.0,
        "m" | "mb" => 1e6,
        "mi" | "mib" => 1024f64.powi(2),
        "g" | "gb" => 1e9,
        "gi" | "gib" => 1024f64.powi(3),
        "t" | "tb" => 1e12,
        "ti" | "tib" => 1024f64.powi(4),
        "p" | "pb" => 1e15,
        "pi" | "pib" => 1024f64.powi(5),
        "e" | "eb" => 1e18,
        "ei" | "eib" => 1024f64.powi(6),
        _ => return Err(format!("unhandled size name: {unit}")),
    };
    // humanize: a size that does not fit a uint64 (2^64 and up).
    if value * mult >= u64::MAX as f64 {
        return Err(format!("too large: {body}"));
    }
    Ok(value * mult)
}

/// Go's `strconv.ParseFloat(s, 64)` with its error text (`strconv.ParseFloat: parsing "x":
/// invalid syntax`, or `value out of range` for a number too large for a float64).
fn go_parse_float(num: &str) -> Result<f64, String> {
    if let Some(value) = crate::yaml::resolve::go_parse_float(num) {
        return Ok(value);
    }
    // Go's syntax is a superset of Rust's for finite decimals: a Rust infinity from digits is an
    // overflow in Go.
    let out_of_range = num.parse::<f64>().is_ok_and(|v| v.is_infinite())
        && num.trim_start_matches(['+', '-']).starts_with(|c: char| c.is_ascii_digit() || c == '.');
    let problem = if out_of_range { "value out of range" } else { "invalid syntax" };
    Err(format!("strconv.ParseFloat: parsing {}: {problem}", talos_go::quote(num)))
}

/// A float64 as Go's `%v` prints it (`1e+21`, `+Inf`, `NaN`).
fn go_value(value: f64) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        if value > 0.0 { "+Inf".into() } else { "-Inf".into() }
    } else {
        crate::yaml::resolve::format_float(value)
    }
}

/// `block.ByteSize`: a byte count kept as the text it was written in (`2.5GiB`).
///
/// Upstream gives it a `Merge` that always copies the patch value, so a patch that does not
/// restate it clears it (docs/merge.md §8.2/§8.3).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ByteSize {
    /// The text as written; `None` is the zero value.
    pub raw: Option<String>,
}

impl ByteSize {
    /// Parses size text (`""` is the zero value).
    pub(crate) fn parse(text: &str) -> Result<ByteSize, String> {
        ByteSize::parse_in(text, crate::Release::DEFAULT)
    }

    /// Parses size text as `release` does (negative sizes from v1.13 on).
    pub(crate) fn parse_in(text: &str, release: crate::Release) -> Result<ByteSize, String> {
        if text.is_empty() {
            return Ok(ByteSize::default());
        }
        parse_bytes_in(text, release.rules().negative_sizes)?;
        Ok(ByteSize { raw: Some(text.to_string()) })
    }
}

impl std::str::FromStr for ByteSize {
    type Err = crate::Error;

    /// Upstream `UnmarshalText`: a `humanize` byte size (a leading `-` allowed), kept as
    /// written; `""` is the zero value. The error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::block::ByteSize;
    ///
    /// assert_eq!("2.5GiB".parse::<ByteSize>()?.raw.as_deref(), Some("2.5GiB"));
    /// assert_eq!("".parse::<ByteSize>()?, ByteSize::default());
    /// assert_eq!("10XB".parse::<ByteSize>().unwrap_err().to_string(), "unhandled size name: xb");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<ByteSize, crate::Error> {
        ByteSize::parse(text).map_err(crate::Error::invalid_value)
    }
}

/// Decodes a text-unmarshaled value (Go type `go_type`): null leaves the zero value, parse
/// errors are recorded at the node's line.
fn decode_text<T: Default>(
    node: &Node,
    cx: &mut DecodeCx,
    go_type: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> T {
    match text_for_unmarshal(node, cx, go_type) {
        Ok(Some(text)) => parse(&text).unwrap_or_else(|e| {
            cx.error(node, e);
            T::default()
        }),
        _ => T::default(),
    }
}

/// Implements [`Value`] for a size kept as the text it was written in (`raw`): decoded through
/// its `parse` (a text unmarshaler), printed as that text, zero when absent, and merged by
/// copying the patch value whatever it is (upstream's `Merge`).
macro_rules! raw_text_value {
    ($name:ident, $go:literal) => {
        impl Value for $name {
            fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
                crate::value::json_schema::scalar()
            }

            fn go_type() -> String {
                $go.into()
            }

            fn text_unmarshaler() -> bool {
                true
            }

            fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
                let release = cx.release();
                decode_text(node, cx, $go, |text| $name::parse_in(text, release))
            }

            fn encode(&self) -> Node {
                Node::go_string(self.raw.clone().unwrap_or_default())
            }

            fn is_empty(&self) -> bool {
                self.raw.is_none()
            }

            fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
                self.clone_from(right);
                Ok(())
            }
        }
    };
}

raw_text_value!(ByteSize, "block.ByteSize");

/// `block.PercentageSize`: `80%` (kept as written). Its `Merge` always copies the patch value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PercentageSize {
    /// The text as written; `None` is the zero value.
    pub raw: Option<String>,
}

impl PercentageSize {
    /// Parses `N%` text (`""` is the zero value).
    pub(crate) fn parse(text: &str) -> Result<PercentageSize, String> {
        PercentageSize::parse_in(text, crate::Release::DEFAULT)
    }

    /// Parses `N%` text as `release` does (negative percentages from v1.13 on).
    pub(crate) fn parse_in(text: &str, release: crate::Release) -> Result<PercentageSize, String> {
        if text.is_empty() {
            return Ok(PercentageSize::default());
        }
        let Some(num) = text.strip_suffix('%') else {
            return Err("percentage must end with '%'".into());
        };
        let num = if release.rules().negative_sizes { num.strip_prefix('-').unwrap_or(num) } else { num };
        let value = go_parse_float(num).map_err(|e| format!("invalid percentage value: {e}"))?;
        // NaN passes, as Go's `value < 0 || value > 100` lets it.
        if !value.is_nan() && !(0.0..=100.0).contains(&value) {
            return Err(format!("percentage must be between 0 and 100, got {}", go_value(value)));
        }
        Ok(PercentageSize { raw: Some(text.to_string()) })
    }
}

impl std::str::FromStr for PercentageSize {
    type Err = crate::Error;

    /// Upstream `UnmarshalText`: `N%` with `N` between 0 and 100, kept as written; `""` is the
    /// zero value. The error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::block::PercentageSize;
    ///
    /// assert_eq!("80%".parse::<PercentageSize>()?.raw.as_deref(), Some("80%"));
    /// assert_eq!("80".parse::<PercentageSize>().unwrap_err().to_string(), "percentage must end with '%'");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<PercentageSize, crate::Error> {
        PercentageSize::parse(text).map_err(crate::Error::invalid_value)
    }
}

raw_text_value!(PercentageSize, "block.PercentageSize");

/// `block.Size`: either a percentage or a byte size, held as two pointers. A patch value replaces
/// the pointer it sets and keeps the other; the byte size wins when printing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Size {
    /// The size as a percentage of the disk, when written as `N%`.
    pub percentage: Option<PercentageSize>,
    /// The size in bytes, when written as a byte size.
    pub bytes: Option<ByteSize>,
}

impl Size {
    /// Parses `80%` or byte-size text (`""` is the zero value).
    pub(crate) fn parse(text: &str) -> Result<Size, String> {
        Size::parse_in(text, crate::Release::DEFAULT)
    }

    /// Parses `80%` or byte-size text as `release` does.
    pub(crate) fn parse_in(text: &str, release: crate::Release) -> Result<Size, String> {
        if text.is_empty() {
            return Ok(Size::default());
        }
        // Upstream picks the percentage form for any text with a `%` in it.
        if text.contains('%') {
            Ok(Size { percentage: Some(PercentageSize::parse_in(text, release)?), bytes: None })
        } else {
            Ok(Size { percentage: None, bytes: Some(ByteSize::parse_in(text, release)?) })
        }
    }

    /// The printed text.
    pub fn text(&self) -> String {
        match (&self.bytes, &self.percentage) {
            (Some(b), _) => b.raw.clone().unwrap_or_default(),
            (None, Some(p)) => p.raw.clone().unwrap_or_default(),
            (None, None) => String::new(),
        }
    }
}

impl std::str::FromStr for Size {
    type Err = crate::Error;

    /// Upstream `UnmarshalText`: a percentage when the text has a `%` in it, else a byte size;
    /// `""` is the zero value. The error is upstream's text.
    ///
    /// ```
    /// use talos_config::model::block::Size;
    ///
    /// assert_eq!("80%".parse::<Size>()?.text(), "80%");
    /// assert_eq!("-10GiB".parse::<Size>()?.text(), "-10GiB");
    /// assert_eq!("180%".parse::<Size>().unwrap_err().to_string(), "percentage must be between 0 and 100, got 180");
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Size, crate::Error> {
        Size::parse(text).map_err(crate::Error::invalid_value)
    }
}

impl Value for Size {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "block.Size".into()
    }

    fn text_unmarshaler() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        let release = cx.release();
        decode_text(node, cx, "block.Size", |text| Size::parse_in(text, release))
    }

    fn encode(&self) -> Node {
        Node::go_string(self.text())
    }

    fn is_empty(&self) -> bool {
        self.percentage.is_none() && self.bytes.is_none()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        if right.percentage.is_some() {
            self.percentage.clone_from(&right.percentage);
        }
        if right.bytes.is_some() {
            self.bytes.clone_from(&right.bytes);
        }
        Ok(())
    }
}

/// `cel.Expression`: CEL source text. Its `Merge` always copies the patch value, so a patch
/// that does not restate it clears it (docs/merge.md §8.3).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CelExpression(pub String);

impl Value for CelExpression {
    fn json_schema(_cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
        crate::value::json_schema::scalar()
    }

    fn go_type() -> String {
        "cel.Expression".into()
    }

    fn text_unmarshaler() -> bool {
        true
    }

    fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
        decode_text(node, cx, "cel.Expression", |t| Ok(CelExpression(t.to_string())))
    }

    fn encode(&self) -> Node {
        Node::go_string(self.0.clone())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn merge(&mut self, right: &Self, _flags: MergeFlags) -> Result<(), String> {
        self.clone_from(right);
        Ok(())
    }
}

/// An enumer-generated Go enum read and printed through its name (`-text`); the first name is
/// the zero value. `v1_12 = [...]` gives the names of releases before v1.13, where they differ.
macro_rules! text_enum {
    ($(#[$m:meta])* $name:ident, $go:literal, $short:literal, [$($text:literal),* $(,)?]
        $(, v1_12 = [$($old:literal),* $(,)?])? $(, v1_14 = [$($new:literal),* $(,)?])?) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// Names in value order (the default release's).
            pub const NAMES: &'static [&'static str] = &[$($text),*];

            /// The names `release` knows, in value order.
            pub fn names_for(release: crate::Release) -> &'static [&'static str] {
                $(if release < crate::Release::V1_13_9 {
                    return &[$($old),*];
                })?
                $(if release >= crate::Release::V1_14_0_RC1 {
                    return &[$($new),*];
                })?
                let _ = release;
                Self::NAMES
            }

            /// The value named `text` (exact, then case-insensitive).
            pub fn parse(text: &str) -> Option<Self> {
                Self::parse_for(text, crate::Release::DEFAULT)
            }

            /// The value named `text` among `release`'s names.
            pub fn parse_for(text: &str, release: crate::Release) -> Option<Self> {
                let names = Self::names_for(release);
                let pos = names
                    .iter()
                    .position(|n| *n == text)
                    .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(text)))?;
                u32::try_from(pos).ok().map($name)
            }

            /// The name (`<Short>(N)` for an unknown value).
            pub fn text(&self) -> String {
                self.text_for(crate::Release::DEFAULT)
            }

            /// The name as `release` prints it.
            pub fn text_for(&self, release: crate::Release) -> String {
                usize::try_from(self.0)
                    .ok()
                    .and_then(|i| Self::names_for(release).get(i))
                    .map(|n| (*n).to_string())
                    .unwrap_or_else(|| format!("{}({})", $short, self.0))
            }
        }

        impl Value for $name {
            fn go_type() -> String {
                $go.into()
            }

            fn json_schema(cx: &mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json {
                crate::value::json_schema::enum_names(Self::names_for(cx.release()))
            }

            fn text_unmarshaler() -> bool {
                true
            }

            fn decode(node: &Node, cx: &mut DecodeCx) -> Self {
                let release = cx.release();
                decode_text(node, cx, $go, |t| {
                    Self::parse_for(t, release).ok_or_else(|| format!("{} does not belong to {} values", t, $short))
                })
            }

            fn encode(&self) -> Node {
                Node::go_string(self.text())
            }

            fn encode_for(&self, release: crate::Release) -> Node {
                Node::go_string(self.text_for(release))
            }

            fn is_empty(&self) -> bool {
                self.0 == 0
            }

            fn merge(&mut self, right: &Self, flags: MergeFlags) -> Result<(), String> {
                if right.0 != 0 || flags.overwrite {
                    *self = *right;
                }
                Ok(())
            }

            fn match_text(&self) -> Option<String> {
                Some(self.text())
            }
        }
    };
}

text_enum!(
    /// `block.VolumeType`.
    VolumeType,
    "block.VolumeType",
    "VolumeType",
    ["partition", "disk", "tmpfs", "directory", "symlink", "overlay", "external"],
    v1_12 = ["partition", "disk", "tmpfs", "directory", "symlink", "overlay"]
);

text_enum!(
    /// `block.FilesystemType`.
    FilesystemType,
    "block.FilesystemType",
    "FilesystemType",
    ["none", "xfs", "vfat", "ext4", "iso9660", "swapi", "virtiofs"],
    v1_12 = ["none", "xfs", "vfat", "ext4", "iso9660", "swap"],
    v1_14 = ["none", "xfs", "vfat", "ext4", "iso9660", "swapi", "virtiofs", "btrfs"]
);

text_enum!(
    /// `block.EncryptionProviderType`.
    EncryptionProviderType,
    "block.EncryptionProviderType",
    "EncryptionProviderType",
    ["none", "luks2"]
);

// The enums of upstream `pkg/machinery/resources/storage` (v1.14's storage documents).

text_enum!(
    /// `storage.LVMLogicalVolumeType`.
    LvmLogicalVolumeType,
    "storage.LVMLogicalVolumeType",
    "LVMLogicalVolumeType",
    ["linear", "raid1", "raid0", "raid10"]
);

text_enum!(
    /// `storage.MDLevel`.
    MdLevel,
    "storage.MDLevel",
    "MDLevel",
    ["raid1"]
);

text_enum!(
    /// `storage.MDMetadata`.
    MdMetadata,
    "storage.MDMetadata",
    "MDMetadata",
    ["1.0", "1.2"]
);
