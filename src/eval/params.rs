//! Every evaluation weight, as named (middlegame, endgame) pairs in
//! centipawns: the one file a tuner edits. Hand-set starting values in the
//! spirit of the classic engines; tables say what they are indexed by.

use super::tapered::{S, s};

// ---------------------------------------------------------------- material

/// Game phase weight of each role (pawn, knight, bishop, rook, queen, king).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting material; more (after promotions) is clamped.
pub const MAX_PHASE: i32 = 24;

/// Material in centipawns, middlegame and endgame, by role.
pub const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
pub const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];

/// Material values used by move ordering and SEE (one number per role).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

// ------------------------------------------------------ piece-square rules
// The tables are generated from these rules (see `material_pst`). "Centre
// distance" is the sum of the file's and rank's distances from the centre
// lines in half-squares: 2 in the four centre squares, 14 in a corner.

/// Centre distance at which a centralisation bonus is zero.
pub const PST_CENTRE_PIVOT: i32 = 5;
/// Per unit of centralisation (pivot minus centre distance), by role.
pub const KNIGHT_CENTRALITY: S = s(6, 5);
pub const BISHOP_CENTRALITY: S = s(3, 2);
pub const QUEEN_CENTRALITY: S = s(1, 3);
pub const KING_CENTRALITY: S = s(0, 6);
/// A knight still on its back rank.
pub const KNIGHT_BACK_RANK: S = s(-10, 0);
/// A bishop on one of the two long diagonals.
pub const BISHOP_LONG_DIAGONAL: S = s(8, 0);
/// A rook on the d or e file.
pub const ROOK_CENTRE_FILE: S = s(6, 0);
/// A queen on the 6th rank or beyond.
pub const QUEEN_ADVANCED: S = s(4, 0);
/// A pawn, per rank advanced from its starting rank.
pub const PAWN_ADVANCE: S = s(4, 6);
/// A d/e-file (c/f-file) pawn on the 4th or 5th rank.
pub const PAWN_CENTRE: S = s(12, 0);
pub const PAWN_NEAR_CENTRE: S = s(6, 0);
/// The king, per rank away from its back rank.
pub const KING_RANK: S = s(-12, 0);
/// The king on the c..f files.
pub const KING_CENTRE_FILES: S = s(-24, 0);
/// The king in a back-rank corner (a, b, g, h files).
pub const KING_CORNER: S = s(20, 0);

// ---------------------------------------------------------------- mobility
// Indexed by the number of reachable squares: attacked, not occupied by an
// own piece and not attacked by an enemy pawn.

pub const MOBILITY_KNIGHT: [S; 9] = [
    s(-35, -45),
    s(-25, -30),
    s(-8, -16),
    s(-2, -7),
    s(3, 3),
    s(8, 8),
    s(13, 12),
    s(17, 15),
    s(20, 18),
];
pub const MOBILITY_BISHOP: [S; 14] = [
    s(-28, -35),
    s(-12, -14),
    s(5, -2),
    s(12, 7),
    s(19, 13),
    s(26, 22),
    s(29, 28),
    s(33, 31),
    s(34, 35),
    s(37, 39),
    s(42, 42),
    s(43, 45),
    s(48, 47),
    s(52, 51),
];
pub const MOBILITY_ROOK: [S; 15] = [
    s(-32, -42),
    s(-16, -18),
    s(-8, 0),
    s(-5, 10),
    s(-2, 18),
    s(0, 24),
    s(4, 32),
    s(8, 36),
    s(13, 41),
    s(14, 45),
    s(16, 50),
    s(19, 54),
    s(23, 56),
    s(24, 58),
    s(28, 60),
];
pub const MOBILITY_QUEEN: [S; 28] = [
    s(-20, -25),
    s(-12, -14),
    s(0, -2),
    s(1, 4),
    s(6, 12),
    s(10, 20),
    s(13, 26),
    s(18, 32),
    s(20, 35),
    s(22, 40),
    s(25, 42),
    s(27, 46),
    s(28, 49),
    s(30, 52),
    s(31, 54),
    s(32, 56),
    s(33, 59),
    s(34, 61),
    s(36, 63),
    s(39, 65),
    s(40, 67),
    s(44, 72),
    s(46, 74),
    s(46, 76),
    s(48, 79),
    s(49, 82),
    s(51, 86),
    s(52, 88),
];

// ------------------------------------------------------------------ pieces

pub const BISHOP_PAIR: S = s(30, 50);
/// Per own pawn on the bishop's square colour.
pub const BISHOP_PAWNS_SAME_COLOUR: S = s(-2, -4);
/// A knight or bishop on an outpost: relative rank 4..6, protected by an own
/// pawn, on a square no enemy pawn can ever attack.
pub const KNIGHT_OUTPOST: S = s(24, 12);
pub const BISHOP_OUTPOST: S = s(12, 6);
/// A rook on a file without pawns, or without own pawns.
pub const ROOK_OPEN_FILE: S = s(22, 8);
pub const ROOK_SEMI_OPEN_FILE: S = s(10, 5);
/// A rook on the 7th rank while the enemy king is on the 8th or enemy pawns
/// are on the 7th.
pub const ROOK_SEVENTH: S = s(10, 20);

// --------------------------------------------------------- pawn structure

/// Per pawn with an own pawn in front of it on the same file.
pub const PAWN_DOUBLED: S = s(-8, -22);
/// Per pawn without own pawns on the adjacent files.
pub const PAWN_ISOLATED: S = s(-9, -12);
/// Per pawn behind all own pawns of the adjacent files whose stop square an
/// enemy pawn attacks.
pub const PAWN_BACKWARD: S = s(-7, -11);
/// A pawn defended by an own pawn or beside one, by relative rank.
pub const PAWN_CONNECTED: [S; 8] = [
    s(0, 0),
    s(3, 2),
    s(5, 3),
    s(7, 5),
    s(12, 10),
    s(22, 18),
    s(35, 30),
    s(0, 0),
];
/// A passed pawn (no enemy pawn in front on its own or the adjacent files;
/// the rear one of doubled pawns does not count), by relative rank.
pub const PASSED_RANK: [S; 8] = [
    s(0, 0),
    s(3, 8),
    s(5, 12),
    s(8, 20),
    s(25, 40),
    s(55, 85),
    s(90, 140),
    s(0, 0),
];
/// A passed pawn that is also connected, on top of both bonuses.
pub const PASSED_CONNECTED: [S; 8] = [
    s(0, 0),
    s(0, 0),
    s(2, 4),
    s(4, 8),
    s(8, 16),
    s(14, 30),
    s(20, 45),
    s(0, 0),
];
/// The terms below are multiplied by a passer's advancement weight: its
/// relative rank minus this (0 or less: not applied).
pub const PASSER_WEIGHT_BASE_RANK: i32 = 2;
/// Per square (up to `PASSER_KING_DISTANCE_CAP`) from the stop square to
/// the enemy king (bonus) and to the own king (the weight is a penalty).
pub const PASSER_ENEMY_KING_DISTANCE: S = s(0, 5);
pub const PASSER_OWN_KING_DISTANCE: S = s(0, -2);
pub const PASSER_KING_DISTANCE_CAP: i32 = 5;
/// The stop square is occupied.
pub const PASSER_BLOCKED: S = s(-2, -6);
/// The stop square is empty and not attacked by the enemy.
pub const PASSER_FREE_STOP: S = s(2, 6);

// -------------------------------------------------------------- king safety
// Middlegame only. Danger units: each enemy piece attacking the king zone
// (the king's squares and the row in front) adds its weight, each attack on
// a square next to the king adds `KING_ZONE_HIT`, each kind of safe check
// available adds its weight. The units are scaled by the number of
// attackers and the penalty is quadratic: units² / KING_DANGER_DIVISOR.

/// Per attacking piece, by role (pawn and king do not count).
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 10, 10, 14, 22, 0];
pub const KING_ZONE_HIT: i32 = 4;
/// Per role that can give a safe check (square not defended, not occupied
/// by the attacker's own pieces).
pub const KING_SAFE_CHECK: [i32; 6] = [0, 12, 8, 14, 16, 0];
/// Percent of the units that count, by number of attackers (one attacker
/// alone is no attack).
pub const KING_ATTACKERS_PERCENT: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
/// Percent of the units that count when the attacker has no queen.
pub const KING_NO_QUEEN_PERCENT: i32 = 40;
pub const KING_DANGER_DIVISOR: i32 = 20;
pub const KING_DANGER_MAX: i32 = 900;
/// Pawn shield on the king's file and the two beside it (b..g when the king
/// is on an edge file): per file without an own pawn in front of the king,
/// and per file by how many ranks ahead of the king its nearest pawn is.
pub const KING_SHIELD_MISSING: S = s(-22, 0);
pub const KING_SHIELD_DISTANCE: [S; 8] = [
    s(0, 0),
    s(0, 0),
    s(-8, 0),
    s(-15, 0),
    s(-19, 0),
    s(-20, 0),
    s(-20, 0),
    s(-20, 0),
];
/// Per shield file without own pawns (semi-open for the enemy), and in
/// addition when there are no pawns on it at all.
pub const KING_SEMI_OPEN_FILE: S = s(-15, 0);
pub const KING_OPEN_FILE: S = s(-12, 0);
/// The nearest enemy pawn in front of the king on a shield file, by its rank
/// distance from the king (1..4), when no own pawn blocks it.
pub const KING_PAWN_STORM: [S; 5] = [s(0, 0), s(-4, 0), s(-16, 0), s(-9, 0), s(-4, 0)];

// ----------------------------------------------------------------- threats

/// Per enemy knight, bishop, rook or queen attacked by an own pawn.
pub const THREAT_BY_PAWN: S = s(40, 25);
/// By the victim's role: attacked by a knight or bishop, and the victim is
/// undefended or a rook or queen.
pub const THREAT_BY_MINOR: [S; 6] = [
    s(2, 12),
    s(20, 22),
    s(22, 25),
    s(38, 48),
    s(35, 70),
    s(0, 0),
];
/// By the victim's role: attacked by a rook, and the victim is undefended
/// or a queen.
pub const THREAT_BY_ROOK: [S; 6] = [s(2, 18), s(18, 30), s(18, 30), s(0, 18), s(32, 40), s(0, 0)];
/// Per enemy piece (not pawn or king) attacked and not defended.
pub const HANGING: S = s(30, 18);

// ------------------------------------------------------------- the whole

/// For the side to move.
pub const TEMPO: S = s(16, 8);

// Endgame scale factors, out of `SCALE_NORMAL`, for the side ahead: the
// four pawnless material draws scale the whole score, the rest the endgame
// half only.
pub const SCALE_NORMAL: i32 = 64;
/// No pawns, at most a bishop ahead, and only a minor piece: cannot win.
pub const SCALE_NO_WIN: i32 = 0;
/// No pawns, at most a bishop ahead, the defender has at most a minor.
pub const SCALE_ALMOST_DRAW: i32 = 4;
/// No pawns, at most a bishop ahead, the defender has more.
pub const SCALE_HARD_WIN: i32 = 14;
/// No pawns and nothing but one or two knights.
pub const SCALE_KNIGHTS_ONLY: i32 = 4;
/// Opposite-coloured bishops and no other pieces: base and per passer of
/// the side ahead.
pub const SCALE_OCB_ONLY: i32 = 18;
pub const SCALE_OCB_PER_PASSER: i32 = 6;
/// Opposite-coloured bishops with other pieces.
pub const SCALE_OCB_WITH_PIECES: i32 = 46;
/// Few pawns for the side ahead, less than a rook ahead in pieces: base
/// plus per pawn (capped at normal).
pub const SCALE_PAWNS_BASE: i32 = 36;
pub const SCALE_PER_PAWN: i32 = 7;

/// Evaluations are clamped well inside the mate range.
pub const EVAL_LIMIT: i32 = 20_000;
