package app

import (
	"fmt"

	"schedplay/scenarios"
)

// View is the session's view block (scenarios.View): its speed, the A/B
// sets (the ones running, else the ones the A key would turn on) and
// whether A/B is on, talk mode, and whether the user paused it.
func (s *Session) View() scenarios.View {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := scenarios.View{Speed: s.speed, Talk: s.talk, Chapters: cloneChapters(s.ch.list), Chapter: s.ch.cur, Paused: s.userPaused && !s.playing}
	if s.theme == "light" {
		v.Theme = s.theme
	}
	v.TimeMS = ms(s.nowLocked())
	switch {
	case len(s.compare) > 0:
		v.Compare, v.AB = append([]string(nil), s.compare...), true
	case len(s.lastCompare) > 0:
		v.Compare = append([]string(nil), s.lastCompare...)
	}
	return v
}

// ApplyView makes the session show what v says; what v leaves zero (no
// speed, no compare sets) stays as it is. Compare sets with AB on turn A/B
// on; without, they become what the A key turns on.
func (s *Session) ApplyView(v scenarios.View) error {
	if v.Speed != 0 {
		if err := s.SetSpeed(v.Speed); err != nil {
			return err
		}
	}
	s.SetTalk(v.Talk)
	if v.Theme != "" {
		if err := s.SetTheme(v.Theme); err != nil {
			return err
		}
	}
	if len(v.Chapters) > 0 {
		s.SetChapters(v.Chapters)
	}
	switch {
	case v.AB && len(v.Compare) > 0:
		if err := s.SetCompare(v.Compare); err != nil {
			return err
		}
	case len(v.Compare) > 0:
		s.mu.Lock()
		s.lastCompare = append([]string(nil), v.Compare...)
		s.mu.Unlock()
	}
	// The presenter's place: a chapter, then the time shown.
	if v.Chapter > 0 {
		if err := s.GoChapter(v.Chapter); err != nil {
			return err
		}
	}
	if v.TimeMS > 0 {
		if _, err := s.Seek(v.TimeMS); err != nil {
			return err
		}
	}
	if v.Paused {
		s.Pause()
	}
	return nil
}

// ViewLink is the share-link fragment with the view: "s=...&v=...".
func (s *Session) ViewLink() string {
	s.mu.Lock()
	sc := s.scen
	s.mu.Unlock()
	if sc == nil {
		return ""
	}
	return scenarios.EncodeLinkView(sc, s.View())
}

// loadLinkView applies the "v=" part of a link after its scenario loaded:
// a bad view is reported, and the scenario plays in the page's own view.
func (s *Session) loadLinkView(link string) {
	v, ok, err := scenarios.LinkView(link)
	if err != nil {
		s.SetError(fmt.Sprintf("share link: view: %v (the scenario plays with the page's view)", err))
		return
	}
	if !ok {
		return
	}
	if err := s.ApplyView(v); err != nil {
		s.SetError(fmt.Sprintf("share link: view: %v", err))
	}
}

// ShareLink is the share-link fragment to copy: with the view ("s=...&v=...")
// or without. It is "" when the link would be over the limit a reload
// applies, and Error says so (LinkFits).
func (s *Session) ShareLink(view bool) string {
	link := s.Link()
	if view {
		link = s.ViewLink()
	}
	if err := LinkFits(link); err != nil {
		s.SetError(err.Error())
		return ""
	}
	return link
}
