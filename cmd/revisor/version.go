package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// version prints the module version and the build's Go version and VCS
// stamp, from the information the Go toolchain embeds.
func version(_ context.Context, args []string, _ func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("no build information in this binary")
	}
	fmt.Fprintln(stdout, describeBuild(info))
	return nil
}

// describeBuild is one line: "revisor <version> (<go version>[, commit <rev>[ modified], <time>])".
func describeBuild(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	parts := []string{info.GoVersion}
	if rev := settings["vcs.revision"]; rev != "" {
		if settings["vcs.modified"] == "true" {
			rev += " modified"
		}
		parts = append(parts, "commit "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	return fmt.Sprintf("revisor %s (%s)", v, strings.Join(parts, ", "))
}
