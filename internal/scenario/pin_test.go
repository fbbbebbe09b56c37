package scenario_test

// pinnedHash is the hash of base(t); see TestMarshalStable.
const pinnedHash = "e494d8e6a13d80d4e025fadbdb3ef8949d1d56208f84839d2757f3fd4742a2b4"
