package pagemodel

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// The QR image of a preset's share link (with a view) decodes to the link
// (zbarimg, when installed).
func TestQR(t *testing.T) {
	sc, _ := scenarios.Preset("sdet-numaq") // the longest preset link
	link := "http://127.0.0.1:8080/#" + scenarios.EncodeLinkView(sc, scenarios.View{Speed: 0.01, AB: true, Compare: []string{"policy.features.WAKE_AFFINE=false"}})
	url, v, err := QR(link)
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := im.Bounds().Dx(); w != 17+4*v+8 {
		t.Errorf("version %d image is %d px", v, w)
	}
	t.Logf("%d-byte link: version %d", len(link), v)
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Skip("zbarimg not installed")
	}
	// zbar wants more than a pixel a module: scale by 4.
	file := filepath.Join(t.TempDir(), "qr.png")
	big := scale(im, 4)
	var b bytes.Buffer
	png.Encode(&b, big)
	os.WriteFile(file, b.Bytes(), 0o644)
	out, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	if got := strings.TrimSuffix(string(out), "\n"); got != link {
		t.Errorf("zbarimg read %q", got)
	}
}

func scale(im image.Image, k int) image.Image {
	b := im.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := range b.Dy() * k {
		for x := range b.Dx() * k {
			out.Set(x, y, im.At(x/k, y/k))
		}
	}
	return out
}
