from pathlib import Path

from setuptools import find_packages, setup

here = Path(__file__).parent


def requirements(name: str) -> list[str]:
    lines = (here / name).read_text().splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


setup(
    name="zoo",
    version="0.1.0",
    description="Text, vision and audio Transformers on one shared block library",
    packages=find_packages(include=["zoo", "zoo.*", "backbones", "backbones.*", "heads", "heads.*",
                                    "data", "data.*"]),
    package_data={"data": ["corpus/*", "corpus/*/*", "speech_tiny/*", "speech_tiny/*/*", "speech_tiny/*/*/*",
                           "speech_tiny/*/*/*/*"],
                  "backbones": ["inference/csrc/*.cpp", "inference/csrc/*.inc", "inference/csrc/*.h"]},
    python_requires=">=3.10",
    install_requires=requirements("requirements.txt"),
    extras_require={"test": requirements("requirements-test.txt"), "serve": requirements("requirements-serve.txt")},
    entry_points={"console_scripts": ["zoo = zoo.cli.main:main"]},
)
