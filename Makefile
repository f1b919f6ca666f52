# The two set-up commands of the README: `make demo` and `make test`.
# Each creates the virtual environment it needs on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: demo test clean

# rebuilt when the package's metadata or its C kernels change (an editable install does not
# recompile the extension by itself)
$(BIN)/docnmf: pyproject.toml setup.py $(wildcard src/docnmf/factor/*.c src/docnmf/factor/*.h)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,plot]"
	touch $@

demo: $(BIN)/docnmf
	$(BIN)/docnmf demo

test: $(BIN)/docnmf
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
