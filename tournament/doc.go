// Package tournament is the core of Revisor's domain: what every part of a
// tournament shares. It holds tournaments, their settings and rules,
// players, rounds and results as the store keeps them, the standings, the
// events the pages follow, tokens and who they name, and the one error
// type, with the Store interface its storage implements.
//
// The subdomains stand on it, each a package of its own under
// tournament/ that this package never imports, so that a change to one
// of them cannot reach the others through the core: play (rounds, games,
// deals, confirmations, the clock), referee (disputes, rulings, the
// audit log), registry (the register of people, series, ratings) and
// transfer (export and import). The types the store takes and returns for
// them stay here, since tournament/postgres implements the store without
// importing any subdomain. It depends only on the engine; HTTP and SQL
// live in adapters.
package tournament
