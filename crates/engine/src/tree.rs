//! The layout's full geometry, rebuilt from the plays, for drawing it.

use serde::{Deserialize, Serialize};

use crate::layout::{ArmId, Layout};
use crate::rules::Rules;
use crate::state::Entry;
use crate::tile::{Pip, Tile};

/// Where an arm starts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Anchor {
    /// A side of the lead tile.
    Root,
    /// A sprout of a spinning double lying in `arm` at `index` (`arm: None` for the lead).
    Sprout {
        /// The spinning double.
        double: Tile,
        /// The arm the double lies in (`None`: the double is the lead).
        arm: Option<ArmId>,
        /// Its position in that arm.
        index: usize,
    },
}

/// A tile in an arm, with the half facing the lead (`inner`) and the half facing out.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Placed {
    /// The tile.
    pub tile: Tile,
    /// The half toward the lead.
    pub inner: Pip,
    /// The half away from the lead.
    pub outer: Pip,
}

/// One arm: where it starts, its tiles outward, and its open end.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ArmLine {
    /// The arm's id.
    pub id: ArmId,
    /// Where it starts.
    pub anchor: Anchor,
    /// Its tiles, from the anchor outward.
    pub tiles: Vec<Placed>,
    /// Whether a tile may be laid on it now.
    pub open: bool,
    /// The pip showing at its end.
    pub end: Pip,
}

/// The whole layout as drawn: the lead tile and every arm.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct LayoutTree {
    /// The lead tile.
    pub root: Option<Tile>,
    /// Every arm, by id.
    pub arms: Vec<ArmLine>,
    /// The count.
    pub count: u16,
}

impl LayoutTree {
    /// Rebuild the geometry from a hand's history.
    #[must_use]
    pub fn from_history(rules: &Rules, history: &[Entry]) -> LayoutTree {
        let mut layout = Layout::new();
        let mut tree = LayoutTree::default();
        for e in history {
            let Entry::Play { tile, arm, .. } = *e else {
                continue;
            };
            let before = layout.arm_count();
            match arm {
                None => {
                    layout.lay_lead(tile, rules);
                    tree.root = Some(tile);
                    for id in 0..2 {
                        tree.arms.push(ArmLine {
                            id: ArmId(id),
                            anchor: Anchor::Root,
                            tiles: Vec::new(),
                            open: true,
                            end: 0,
                        });
                    }
                }
                Some(a) => {
                    let inner = layout.arm_pip(a);
                    layout.lay(tile, a, rules);
                    tree.arms[a.idx()].tiles.push(Placed {
                        tile,
                        inner,
                        outer: tile.other(inner),
                    });
                }
            }
            let (first, spun) = match arm {
                None => (2, layout.arm_count() == 4),
                Some(_) => (before, layout.arm_count() > before),
            };
            if spun {
                let index = arm.map_or(0, |a| tree.arms[a.idx()].tiles.len() - 1);
                for id in first..first + 2 {
                    tree.arms.push(ArmLine {
                        id: ArmId(id),
                        anchor: Anchor::Sprout {
                            double: tile,
                            arm,
                            index,
                        },
                        tiles: Vec::new(),
                        open: false,
                        end: 0,
                    });
                }
            }
        }
        for line in &mut tree.arms {
            line.open = layout.is_open(line.id);
            line.end = layout.arm_pip(line.id);
        }
        tree.count = layout.count();
        tree
    }
}
