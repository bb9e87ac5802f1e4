import pytest

import radioflow as rf


@pytest.fixture(params=rf.SCHEDULERS)
def scheduler(request):
    """Every scheduler the runtime has (flow, tpb, single)."""
    return request.param
