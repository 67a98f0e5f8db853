// Package registry is the server's register of people across
// tournaments: people and their membership numbers, merging two entries
// of one person, series of club nights and their standings, the players'
// ratings replayed from every game played, and seeding a draw by rating.
//
// It is a subdomain on top of package tournament: Service works through
// its own Store (which its PostgreSQL part, package registrypg beside it,
// implements) and reads the tournaments' results through tournament.Store.
// A tournament's player names a person of the register by its ID
// (tournament.ValidPersonID); the tournaments know nothing else of it.
package registry
