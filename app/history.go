package app

import (
	"bytes"
	"errors"
	"fmt"

	"schedplay/scenarios"
)

// change is how a load changes the scenario, for the address bar, the
// browser history and undo.
type change uint8

const (
	changeNone    change = iota // not the user's (a link opened, the default, a restart): no URL write
	changeEdit                  // an edit (Set, Edit): the URL follows (replaceState), undoable
	changeReplace               // a new scenario (a preset, N, a file, an import, blank): a new history entry (pushState), undoable
	changeUndo                  // Undo: the URL follows; the undone scenario goes to redo
	changeRedo                  // Redo: the URL follows; back to undo
)

// MaxUndo bounds the undo (and redo) history, in scenarios.
const MaxUndo = 200

type undoEntry struct {
	scen   *scenarios.Scenario
	preset string
}

// history records the change from old to sc in the undo and redo lists
// (under s.mu). A change that leaves the scenario as it was records
// nothing.
func (s *Session) history(how change, old *scenarios.Scenario, oldPreset string, sc *scenarios.Scenario) {
	// A link opened over a scenario (Back, a pasted link) is a change too:
	// it can be undone like the rest. The first scenario and a restart are
	// not.
	if old == nil || bytes.Equal(old.Canonical(), sc.Canonical()) && old.Title == sc.Title {
		return
	}
	prev := undoEntry{old, oldPreset}
	switch how {
	case changeUndo:
		s.undo = s.undo[:len(s.undo)-1]
		s.redo = append(s.redo, prev)
	case changeRedo:
		s.redo = s.redo[:len(s.redo)-1]
		s.undo = append(s.undo, prev)
	default:
		s.undo = append(s.undo, prev)
		if len(s.undo) > MaxUndo {
			s.undo = append(s.undo[:0:0], s.undo[len(s.undo)-MaxUndo:]...)
		}
		s.redo = nil
	}
}

// Undo goes back to the scenario before the last user change (an edit, a
// preset, an import...): it plays from t = 0 and the address bar follows.
func (s *Session) Undo() error { return s.travel(changeUndo) }

// Redo makes the change the last Undo took back again.
func (s *Session) Redo() error { return s.travel(changeRedo) }

func (s *Session) travel(how change) error {
	for try := 0; ; try++ {
		s.mu.Lock()
		list := s.undo
		if how == changeRedo {
			list = s.redo
		}
		if len(list) == 0 {
			s.mu.Unlock()
			if how == changeUndo {
				return s.fail(errors.New("nothing to undo"))
			}
			return s.fail(errors.New("nothing to redo"))
		}
		e, rev := list[len(list)-1], s.rev
		s.mu.Unlock()
		err := s.loadAt(e.scen, how, e.preset, rev)
		if err != errStale {
			return err
		}
		if try == maxSetRetries {
			return s.fail(errors.New("the scenario kept changing meanwhile; try again"))
		}
	}
}

// CanUndo and CanRedo report whether Undo and Redo have something to do.
func (s *Session) CanUndo() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.undo) > 0
}

func (s *Session) CanRedo() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.redo) > 0
}

// LinkFits checks a share-link fragment ("s=...", "s=...&v=...") against
// the limit a page reload applies (scenarios.MaxLinkBytes for "#" and the
// fragment): a link over it is refused when it is made, not when it is
// opened.
func LinkFits(link string) error {
	if n := len(link) + 1; n > scenarios.MaxLinkBytes {
		return fmt.Errorf("this scenario's link would be %d bytes, over the %d (64 KiB) a link may have, so it cannot be shared as a link "+
			"(the address bar keeps the last one that fits): it plays here; use Export scenario JSON to share it as a file", n, scenarios.MaxLinkBytes)
	}
	return nil
}

// EditedMark is added to a preset's title when the preset is edited, so
// that a changed machine does not go on under (and share as) the preset's
// name; the user may write a title of their own instead.
const EditedMark = " (edited)"

// markEdited gives c, an edit of preset, the preset's title with
// EditedMark while c differs from the preset and still has its title (as
// it was, or marked); set back to the preset, c gets the title back.
func markEdited(c *scenarios.Scenario, preset string) {
	if preset == "" {
		return
	}
	p, err := scenarios.Preset(preset)
	if err != nil || (c.Title != p.Title && c.Title != p.Title+EditedMark) {
		return // not a preset, or a title of the user's own
	}
	c.Title = p.Title
	if !bytes.Equal(c.Canonical(), p.Canonical()) && len(p.Title)+len(EditedMark) <= scenarios.MaxTitle {
		c.Title = p.Title + EditedMark
	}
}
