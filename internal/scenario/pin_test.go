package scenario_test

import (
	"os"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// pinnedHash is the hash of base(t); see TestMarshalStable.
const pinnedHash = "e494d8e6a13d80d4e025fadbdb3ef8949d1d56208f84839d2757f3fd4742a2b4"

// pinnedFiles are the hashes of embedded experiment files, computed by the
// code before policy entries existed (policies as []string): a file that
// lists only names must resolve to the same bytes, so that every manifest's
// scenario hash stays valid.
var pinnedFiles = map[string]string{
	"default.yaml":    "a44eb5a8ad5766c18fa4da6e3e954c28abfcd677363c14add38afebe0644de8c",
	"sweep-load.yaml": "c8eb35843b09bcae89b2b32272b1ee7ea28be9c91b9ec4b7d8f87d5ecad9a6d0",
}

func TestPinnedFileHashes(t *testing.T) {
	for name, want := range pinnedFiles {
		data, err := os.ReadFile("../../experiments/" + name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(name, data, nil, catalog)
		if err != nil {
			t.Fatalf("Parse(%s): %v", name, err)
		}
		if got := s.Hash(); got != want {
			out, _ := s.Marshal()
			t.Errorf("Hash() of %s = %s, want %s (pinned before policy entries)\n%s", name, got, want, out)
		}
	}
}
