//! The patch pipeline of `talosctl machineconfig patch`: loading and classifying patches
//! (strategic or JSON6902), and applying them left to right, converting between bytes and
//! typed documents only when a step needs it.

mod strategic;

pub(crate) use strategic::strategic_merge;

use std::borrow::Cow;

use crate::config::{Config, Entry, load_entries};
use crate::error::{Error, ErrorKind};
use crate::json6902::{JsonPatch, YamlListError, apply_json6902_in};

/// A loaded strategic merge patch: its documents and delete selectors in upstream
/// `Documents()` order.
#[derive(Clone, Debug)]
pub(crate) struct StrategicPatch {
    pub(crate) entries: Vec<Entry>,
    /// The release whose kinds and fields the documents are.
    pub(crate) release: crate::Release,
}

/// One loaded patch: a strategic merge patch (machine config documents, possibly with
/// `$patch: delete`) or an RFC 6902 JSON patch, as `configpatcher.LoadPatch` classifies it.
#[derive(Clone, Debug)]
pub struct Patch(pub(crate) Loaded);

/// What a [`Patch`] holds.
#[derive(Clone, Debug)]
pub(crate) enum Loaded {
    Strategic(StrategicPatch),
    Json6902(JsonPatch),
}

impl Patch {
    /// Classifies and loads one patch text (upstream `LoadPatch`): a config with `$patch: delete`
    /// support first, then a JSON array of operations, then a YAML list of operations.
    ///
    /// ```
    /// use talos_config::Patch;
    /// assert!(Patch::load(b"[{\"op\": \"remove\", \"path\": \"/machine/network\"}]")?.is_json6902());
    /// assert!(!Patch::load(b"machine:\n  nodeLabels:\n    a: b\n")?.is_json6902());
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn load(bytes: &[u8]) -> Result<Patch, Error> {
        Patch::load_for(bytes, crate::Release::DEFAULT)
    }

    /// [`Patch::load`] as `release` loads a patch: its kinds and fields, its YAML texts.
    ///
    /// ```
    /// use talos_config::{Patch, Release};
    /// let patch = b"apiVersion: v1alpha1\nkind: KubeSpanConfig\nenabled: true\n";
    /// assert!(Patch::load_for(patch, Release::V1_13_9).is_ok());
    /// assert!(Patch::load_for(patch, Release::V1_12_11).is_err());
    /// ```
    pub fn load_for(bytes: &[u8], release: crate::Release) -> Result<Patch, Error> {
        let strategic_err = match load_entries(bytes, true, release) {
            Ok(entries) if release.rules().unvalidated_patches => {
                let entries = Config::unvalidated_documents(entries);
                return Ok(Patch(Loaded::Strategic(StrategicPatch { entries, release })));
            }
            Ok(entries) => {
                let config = Config::new(entries, release)?;
                return Ok(Patch(Loaded::Strategic(StrategicPatch { entries: config.documents(), release })));
            }
            Err(e) => e,
        };
        let json_err = match JsonPatch::from_json(bytes) {
            Ok(p) => return Ok(Patch(Loaded::Json6902(p))),
            Err(e) => e,
        };
        match JsonPatch::decode_yaml_list(bytes, release.yaml()) {
            Ok(p) => Ok(Patch(Loaded::Json6902(p))),
            // The list decoded but a value has no JSON form: upstream returns that error.
            Err(YamlListError::Marshal(message)) => Err(Error::new(ErrorKind::PatchLoad, message)),
            Err(_) if trim_go_space(bytes).starts_with(b"[") => Err(Error::new(ErrorKind::PatchLoad, json_err)),
            Err(_) => Err(match strategic_err.kind() {
                ErrorKind::Decode => strategic_err.with_kind(ErrorKind::PatchLoad),
                _ => strategic_err,
            }),
        }
    }

    /// The release a strategic merge patch was loaded as (its kinds and fields are that
    /// release's); `None` for a JSON6902 patch, which applies as any release.
    ///
    /// ```
    /// use talos_config::{Patch, Release};
    /// let patch = Patch::load_for(b"machine:\n  nodeLabels:\n    a: b\n", Release::V1_12_11)?;
    /// assert_eq!(patch.release(), Some(Release::V1_12_11));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn release(&self) -> Option<crate::Release> {
        match &self.0 {
            Loaded::Strategic(p) => Some(p.release),
            Loaded::Json6902(_) => None,
        }
    }

    /// True for a JSON6902 patch.
    pub fn is_json6902(&self) -> bool {
        matches!(self.0, Loaded::Json6902(_))
    }

    /// The number of JSON6902 operations (0 for a strategic patch).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub(crate) fn json6902_len(&self) -> usize {
        match &self.0 {
            Loaded::Json6902(p) => p.len(),
            Loaded::Strategic(_) => 0,
        }
    }
}

fn trim_go_space(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    &b[start..]
}

/// A patch text with a name for error messages (a file path or the `-p` argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchSource {
    /// The name errors use for this input (a file path, `inline patch #1`, ...).
    pub name: String,
    /// The patch text.
    pub bytes: Vec<u8>,
}

impl PatchSource {
    /// A named patch text.
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> PatchSource {
        PatchSource { name: name.into(), bytes: bytes.into() }
    }
}

/// Loads patches in order (upstream `LoadPatches`); consecutive JSON6902 patches are joined
/// into one. An error names the input it came from.
pub fn load_patches<I: IntoIterator<Item = PatchSource>>(sources: I) -> Result<Vec<Patch>, Error> {
    load_patches_for(sources, crate::Release::DEFAULT)
}

/// [`load_patches`] as `release` loads them.
pub fn load_patches_for<I: IntoIterator<Item = PatchSource>>(
    sources: I,
    release: crate::Release,
) -> Result<Vec<Patch>, Error> {
    let mut out: Vec<Patch> = Vec::new();
    for source in sources {
        let patch = Patch::load_for(&source.bytes, release).map_err(|e| e.in_input(&source.name))?;
        match (out.last_mut(), patch) {
            (Some(Patch(Loaded::Json6902(prev))), Patch(Loaded::Json6902(next))) => prev.append(next),
            (_, patch) => out.push(patch),
        }
    }
    Ok(out)
}

/// Loads `patches` and applies them to `base`, as [`load_patches`] then [`apply_patches`] do,
/// with every error naming the input it came from: the patch that does not load, the base when
/// it does not decode, or the first patch whose step fails (found by applying one patch more at a
/// time, only once something failed).
///
/// ```
/// use talos_config::{PatchSource, merge_sources};
/// let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let ok = PatchSource::new("ok.yaml", "machine:\n  nodeLabels:\n    a: b\n");
/// let bad = PatchSource::new("bad.yaml", "machine:\n  kubelet:\n    extraArgs:\n      x:\n        $patch: delete\n");
/// let err = merge_sources(&base, &[ok, bad]).unwrap_err();
/// assert_eq!(err.input(), Some("bad.yaml"));
/// ```
pub fn merge_sources(base: &PatchSource, patches: &[PatchSource]) -> Result<Vec<u8>, Error> {
    merge_sources_for(base, patches, crate::Release::DEFAULT)
}

/// [`merge_sources`] as `release`'s `talosctl machineconfig patch` merges.
///
/// ```
/// use talos_config::{PatchSource, Release, merge_sources_for};
/// let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let args = PatchSource::new("args.yaml", "machine:\n  kubelet:\n    extraArgs:\n      v: [\"2\"]\n");
/// assert!(merge_sources_for(&base, &[args.clone()], Release::V1_13_9).is_ok());
/// // v1.12's extraArgs are a map of strings: a list does not decode.
/// assert_eq!(merge_sources_for(&base, &[args], Release::V1_12_11).unwrap_err().input(), Some("args.yaml"));
/// ```
pub fn merge_sources_for(
    base: &PatchSource,
    patches: &[PatchSource],
    release: crate::Release,
) -> Result<Vec<u8>, Error> {
    let loaded = load_patches_for(patches.iter().cloned(), release)?;
    apply_patches_for(&base.bytes, &loaded, release).map_err(|e| attribute(e, base, patches, &loaded, release))
}

/// [`merge_sources_for`] of a base the caller gives away: the same bytes or error, with the base's
/// bytes freed as soon as every patch has applied, before the result is encoded (with no
/// patches they are the result).
pub(crate) fn merge_sources_owned(
    base: PatchSource,
    patches: &[PatchSource],
    release: crate::Release,
) -> Result<Vec<u8>, Error> {
    if patches.is_empty() {
        return Ok(base.bytes);
    }
    let loaded = load_patches_for(patches.iter().cloned(), release)?;
    let state = match apply(State::Bytes(Cow::Borrowed(&base.bytes)), &loaded, release) {
        Ok(state) => state.into_owned(),
        Err(e) => return Err(attribute(e, &base, patches, &loaded, release)),
    };
    drop(base);
    Ok(state.into_bytes())
}

/// Names the input of an apply error that names none.
fn attribute(
    err: Error,
    base: &PatchSource,
    patches: &[PatchSource],
    loaded: &[Patch],
    release: crate::Release,
) -> Error {
    if err.input().is_some() {
        return err;
    }
    let decode = err.kind() == ErrorKind::Decode;
    if decode && Config::from_bytes_for(&base.bytes, release).is_err() {
        // The base is wrong. Its lines are the error's lines unless a JSON6902 step re-encoded it.
        let reencoded = loaded.first().is_some_and(Patch::is_json6902);
        let err = if reencoded { err.without_position() } else { err };
        return err.in_input(&base.name);
    }
    // Applying all the patches is what failed: the last one is to blame unless a shorter run
    // fails already (it is not applied a second time to learn what is known).
    let Some(last) = patches.len().checked_sub(1) else {
        return err;
    };
    let culprit = (1..=last)
        .find(|&k| {
            load_patches_for(patches[..k].iter().cloned(), release)
                .and_then(|l| apply_patches_for(&base.bytes, &l, release))
                .is_err()
        })
        .unwrap_or(patches.len());
    // A decode error here is about an intermediate text (a JSON6902 step's output), whose lines
    // are no input's lines.
    let err = if decode { err.without_position() } else { err };
    err.in_input(&patches[culprit - 1].name)
}

/// The state of `Apply`: raw bytes (the caller's input is borrowed, not copied), or a decoded
/// config.
enum State<'a> {
    Bytes(Cow<'a, [u8]>),
    Config(Config),
}

impl State<'_> {
    /// The state, borrowing nothing.
    fn into_owned(self) -> State<'static> {
        match self {
            State::Bytes(b) => State::Bytes(Cow::Owned(b.into_owned())),
            State::Config(c) => State::Config(c),
        }
    }

    fn into_bytes(self) -> Vec<u8> {
        match self {
            State::Bytes(b) => b.into_owned(),
            State::Config(c) => c.into_encoded().into_bytes(),
        }
    }

    fn into_config(self, release: crate::Release) -> Result<Config, Error> {
        match self {
            State::Bytes(Cow::Borrowed(b)) => Config::from_bytes_for(b, release),
            State::Bytes(Cow::Owned(b)) => Config::from_vec_for(b, release),
            State::Config(c) => Ok(c),
        }
    }
}

/// Applies patches to the config bytes left to right, exactly as
/// `talosctl machineconfig patch` does, and returns the bytes it would write with `-o`.
/// With no patches the input comes back unchanged.
///
/// ```
/// use talos_config::{PatchSource, apply_patches, load_patches};
/// let base = b"version: v1alpha1\nmachine:\n  type: worker\n";
/// let patches = load_patches([PatchSource::new("inline", "machine: {network: {hostname: foo}}")]).unwrap();
/// let out = apply_patches(base, &patches).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    network:\n        hostname: foo\ncluster: null\n"
/// );
/// ```
pub fn apply_patches(config: &[u8], patches: &[Patch]) -> Result<Vec<u8>, Error> {
    apply_patches_for(config, patches, crate::Release::DEFAULT)
}

/// [`apply_patches`] as `release` applies them (the config bytes are loaded as that release;
/// load the patches with [`load_patches_for`] and the same release).
pub fn apply_patches_for(config: &[u8], patches: &[Patch], release: crate::Release) -> Result<Vec<u8>, Error> {
    Ok(apply(State::Bytes(Cow::Borrowed(config)), patches, release)?.into_bytes())
}

/// Applies patches to a loaded config (upstream `Apply(WithConfig(..))`), as the release the
/// config was loaded as; returns the bytes.
pub fn apply_patches_to_config(config: Config, patches: &[Patch]) -> Result<Vec<u8>, Error> {
    let release = config.release();
    Ok(apply(State::Config(config), patches, release)?.into_bytes())
}

fn apply<'a>(mut state: State<'a>, patches: &[Patch], release: crate::Release) -> Result<State<'a>, Error> {
    for patch in patches {
        state = match &patch.0 {
            Loaded::Json6902(p) => {
                let out = match &state {
                    State::Bytes(bytes) => apply_json6902_in(bytes, p, release.yaml()),
                    State::Config(c) => apply_json6902_in(encodable(c)?.encode().as_bytes(), p, release.yaml()),
                };
                let out = out.map_err(|message| Error::new(ErrorKind::Json6902, message))?;
                State::Bytes(Cow::Owned(out.into_bytes()))
            }
            Loaded::Strategic(p) if p.release != release => return Err(release_mismatch(p.release, release)),
            Loaded::Strategic(p) => State::Config(strategic_merge(state.into_config(release)?, p)?),
        };
    }
    if let State::Config(c) = &state {
        encodable(c)?;
    }
    Ok(state)
}

/// A strategic patch's documents are those of the release it was loaded as: applying it as
/// another would mix two releases' kinds and fields.
fn release_mismatch(loaded: crate::Release, applied: crate::Release) -> Error {
    Error::new(
        ErrorKind::PatchLoad,
        format!(
            "a patch loaded as Talos {loaded} cannot be applied as {applied}: load the patches with \
             load_patches_for (or Patch::load_for) and the release of the config they apply to"
        ),
    )
}

/// The config, unless it holds a named delete selector whose document never existed: a later
/// patch may still remove such a selector, but upstream's encoder panics on one that is left.
fn encodable(config: &Config) -> Result<&Config, Error> {
    match config.unmatched_named_delete() {
        Some(sel) => Err(Error::new(ErrorKind::Delete, sel.unmatched_text())),
        None => Ok(config),
    }
}
