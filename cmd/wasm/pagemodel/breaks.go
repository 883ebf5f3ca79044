package pagemodel

// BreakPieces splits a label of scenario paths ("A: policy.sd_flags.MC.
// SD_BALANCE_EXEC=true, …") where a line may break: after each '.', '='
// and ',' (the page puts a <wbr> between pieces), with each newline a
// piece of its own. A narrow panel then breaks "policy.sd_flags.MC." /
// "SD_BALANCE_EXEC=true" instead of "SD_BALANCE_EXE" / "C=true", which
// overflow-wrap: anywhere, the only break the plain text had, did.
// Joined, the pieces are the text.
func BreakPieces(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '=', ',':
			out = append(out, text[start:i+1])
			start = i + 1
		case '\n':
			if i > start {
				out = append(out, text[start:i])
			}
			out = append(out, "\n")
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
