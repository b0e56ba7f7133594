from toolcat.cli.app import main

main()
