// Package play is what happens at the tables of a tournament once its
// players are registered: drawing and closing rounds (with the ties the
// organizer resolves and the tables the organizer reseats), the games a
// table submits or enters deal by deal, their corrections and
// confirmations, a player withdrawn during a game, bridge matches, the
// round's clock and the room's view of a round.
//
// It is a subdomain on top of package tournament, which holds what every
// part of a tournament shares: the tournament, its players and settings,
// the standings, the errors, and the types the store keeps of a round's
// games (tournament.DealEntry, TableGame, Clock …), since the store's
// methods take and return them. Service runs through its own Store, a
// part of the tournament's store (tournament/postgres and the in-memory
// store implement both), beside tournament.Service, whose clock,
// randomness and cache of table codes it shares. Entering a deal is one
// write (Store.AppendDeal) under the version it was decided with; the
// games this process entered lately decorate its load (deal_warm.go).
package play
