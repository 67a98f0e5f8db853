// Package referee is the referee's side of a tournament: referee tokens,
// disputes and their reconstructions judged by the engine, rulings
// (corrections, point adjustments, disqualifications) and what follows
// from them, the correction window and its reopenings, the commitment to
// a draw's seed and its replay, and the audit log.
//
// It is a subdomain on top of package tournament: Service works through
// its own Store (which its PostgreSQL part, package refereepg beside it,
// implements) beside tournament.Service, whose clock and randomness it
// shares; it judges games and replays draws with package play's rules and
// draws a revealed round through it (Draws). The standings read the
// rulings' point adjustments (tournament.Adjustment) from the
// tournament's state.
package referee
