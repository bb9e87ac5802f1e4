"""The sigmf Python package's side of radioflow's SigMF tests (crates/interop/tests/sigmf.rs).

usage: sigmf_peer.py read PATH     validates the recording (file pair or archive) with the
                                   package and prints it as JSON (samples unscaled)
       sigmf_peer.py write DIR     writes DIR/py.sigmf-meta + .sigmf-data (ci16_le) and the
                                   archive DIR/pyarch.sigmf (cf32_le) with the package
"""
import json, sys
import numpy as np
import sigmf
from sigmf import SigMFFile, sigmffile

if sys.argv[1] == "read":
    f = sigmffile.fromfile(sys.argv[2], autoscale=False)
    f.validate()
    samples = f.read_samples()
    print(json.dumps({
        "global": f.get_global_info(),
        "captures": f.get_captures(),
        "annotations": f.get_annotations(),
        "samples": [[float(np.real(s)), float(np.imag(s))] for s in samples],
    }))
elif sys.argv[1] == "write":
    d = sys.argv[2]
    iq = np.array([[i, -2 * i] for i in range(1000)], dtype="<i2")
    iq.tofile(f"{d}/py.sigmf-data")
    m = SigMFFile(data_file=f"{d}/py.sigmf-data", global_info={
        "core:datatype": "ci16_le",
        "core:sample_rate": 250000,
        "core:version": sigmf.__specification__,
        "core:description": "written by the sigmf package",
    })
    m.add_capture(0, metadata={"core:frequency": 915e6, "core:datetime": "2023-11-14T22:13:20.5Z"})
    m.add_capture(600, metadata={"core:frequency": 916e6})
    m.add_annotation(100, 50, metadata={"core:label": "burst", "core:freq_lower_edge": 914.9e6, "core:freq_upper_edge": 915.1e6})
    m.tofile(f"{d}/py.sigmf-meta")
    x = (np.arange(500, dtype=np.float32) * 0.25 - 1j * np.arange(500, dtype=np.float32)).astype(np.complex64)
    x.tofile(f"{d}/pyarch.sigmf-data")
    a = SigMFFile(data_file=f"{d}/pyarch.sigmf-data", global_info={
        "core:datatype": "cf32_le",
        "core:sample_rate": 1e6,
        "core:version": sigmf.__specification__,
    })
    a.add_capture(0, metadata={"core:frequency": 2.4e9})
    a.tofile(f"{d}/pyarch.sigmf", toarchive=True)
    print("written")
else:
    sys.exit("unknown command " + sys.argv[1])
